import { ToolsError } from "@tools/registry";
import { closestLine } from "../internal/similar-line.js";
import type { PatchHunk } from "./parse-patch.js";

/** Ways of comparing a hunk line with a file line, strictest first. */
const comparisons: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
];

/** Where `needle` occurs in `lines` at or after `from` (or only at the end), or -1. */
function seek(lines: readonly string[], needle: readonly string[], from: number, atEnd: boolean): number {
  if (needle.length === 0) return atEnd ? lines.length : from;
  for (const normalise of comparisons) {
    const wanted = needle.map(normalise);
    const first = atEnd ? lines.length - needle.length : from;
    for (let start = Math.max(first, from); start + needle.length <= lines.length; start++) {
      let matches = true;
      for (let offset = 0; offset < wanted.length; offset++) {
        if (normalise(lines[start + offset] as string) !== wanted[offset]) {
          matches = false;
          break;
        }
      }
      if (matches) return start;
      if (atEnd) break;
    }
  }
  return -1;
}

/**
 * Applies the hunks of one file, in order, to its lines and returns the new lines. A hunk of
 * added lines only goes right after its @@ line, or at the end of the file when it has none. Throws
 * `PATCH_CONTEXT_NOT_FOUND` naming the file, the hunk and the lines that were not found.
 */
export function applyHunks(path: string, original: readonly string[], hunks: readonly PatchHunk[]): string[] {
  const lines = [...original];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const label = `${path}, hunk ${index + 1} of ${hunks.length}`;
    if (hunk.anchor !== "") {
      const anchorAt = seek(lines, [hunk.anchor], cursor, false);
      if (anchorAt === -1) throw contextNotFound(label, `the @@ line '${hunk.anchor}'`, lines, hunk.anchor);
      cursor = anchorAt + (hunk.oldLines.length > 0 ? 0 : 1);
    }
    // Only added lines and no @@ line: appended at the end of the file, as Codex applies them.
    const at =
      hunk.oldLines.length === 0 && hunk.anchor === ""
        ? lines.length
        : seek(lines, hunk.oldLines, cursor, hunk.atEnd);
    if (at === -1) {
      const shown = hunk.oldLines.map((line) => `    ${line}`).join("\n");
      const firstLine = hunk.oldLines.find((line) => line.trim() !== "") ?? "";
      throw contextNotFound(
        label,
        `these lines${hunk.atEnd ? " at the end of the file" : ""}:\n${shown}\n`,
        lines,
        firstLine,
      );
    }
    // Context lines keep the file's own text (its trailing spaces), not the patch's copy.
    const replacement: string[] = [];
    let fileIndex = at;
    for (const line of hunk.lines) {
      if (line.marker === "+") {
        replacement.push(line.text);
      } else {
        if (line.marker === " ") replacement.push(lines[fileIndex] as string);
        fileIndex++;
      }
    }
    lines.splice(at, hunk.oldLines.length, ...replacement);
    cursor = at + hunk.newLines.length;
  });
  return lines;
}

function contextNotFound(
  label: string,
  what: string,
  lines: readonly string[],
  firstLine: string,
): ToolsError {
  const near = closestLine(lines, firstLine);
  const hint = near ? `The closest line is ${near.line}: "${near.text.trim()}". ` : "";
  const separator = what.endsWith("\n") ? "" : ". ";
  return new ToolsError({
    code: "PATCH_CONTEXT_NOT_FOUND",
    message: `${label}: could not find ${what}${separator}${hint}Nothing was written; read the file and send the whole patch again.`,
  });
}
