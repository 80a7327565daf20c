import { isAbsolute } from "node:path";
import { readRegularFile } from "@tools/registry";
import { DebugError } from "../errors/debug-error.js";
import type { BreakpointStore } from "../session/breakpoint-store.js";
import { limits } from "../session/limits.js";
import { largestSourceBytes } from "../session/source-lines.js";

/** The number of lines of a text (a final newline ends the last line, it does not start one). */
function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split(/\r?\n/);
  return lines.at(-1) === "" ? lines.length - 1 : lines.length;
}

function refuse(message: string): never {
  throw new DebugError("DEBUG_BAD_ARGUMENTS", message);
}

/**
 * Refuses breakpoints an adapter could never bind, before they are stored: a file that does not
 * exist or is not a regular file (a folder, a FIFO), a line past the file's end, more than
 * {@link limits.breakpointsPerFile} lines, or a file beyond {@link limits.breakpointFiles}. An
 * empty `lines` (clearing) is always accepted. `shown` is the path as the model gave it.
 */
export async function checkBreakpoints(
  file: string,
  lines: readonly number[],
  shown: string,
  store: BreakpointStore,
): Promise<void> {
  if (lines.length === 0) return;
  const distinct = [...new Set(lines)].sort((a, b) => a - b);
  if (distinct.length > limits.breakpointsPerFile) {
    refuse(
      `${distinct.length} breakpoints asked for in ${shown}; at most ${limits.breakpointsPerFile} per file are kept. ` +
        "Set the lines you mean to stop at (the first line of each function you suspect, say)",
    );
  }
  if (!store.files.has(file) && store.files.size >= limits.breakpointFiles) {
    refuse(
      `breakpoints are set in ${store.files.size} files already, at most ${limits.breakpointFiles} are kept; ` +
        `clear a file's first ({"op":"breakpoints","file":"…","lines":[]}); op 'status' lists them`,
    );
  }
  let text: string | undefined;
  try {
    text = (await readRegularFile(file, largestSourceBytes)).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      // `shown` is relative unless the path lies outside the working directory.
      refuse(
        isAbsolute(shown)
          ? `${shown} does not exist; give the source file's path relative to the working directory`
          : `${shown} does not exist in the working directory; give the source file's path relative to it`,
      );
    }
    if (code === "EISDIR") refuse(`${shown} is a folder; give a source file in it`);
    if (code === "EINVAL")
      refuse(`${shown} is a FIFO, socket or device, not a source file; give a source file`);
    // Larger than a source file is read to show a line of it: set as asked, its length unchecked.
    if (code === "EFBIG") return;
    refuse(`${shown} cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const count = countLines(text);
  const past = distinct.filter((line) => line > count);
  if (past.length === 0) return;
  const which = past.length === 1 ? `line ${past[0]} is` : `lines ${past.join(", ")} are`;
  refuse(
    count === 0
      ? `${shown} is empty: it has no line to stop at`
      : `${which} past the end of ${shown}, which has ${count} line${count === 1 ? "" : "s"}; give lines from 1 to ${count}`,
  );
}
