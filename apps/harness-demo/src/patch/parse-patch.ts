import { ToolsError } from "@tools/registry";

/** One `@@` hunk of an update: the lines it expects and the lines it leaves. */
export interface PatchHunk {
  /** The text after `@@` (a line to find first, e.g. a function header), or "" for none. */
  readonly anchor: string;
  /** Context and removed lines, in order: what the file must contain. */
  readonly oldLines: readonly string[];
  /** Context and added lines, in order: what replaces them. */
  readonly newLines: readonly string[];
  /** `*** End of File` followed: the hunk must match at the end of the file. */
  readonly atEnd: boolean;
  /** The hunk's lines in order: ` ` context, `-` removed, `+` added. */
  readonly lines: readonly HunkLine[];
}

/** One line of a hunk. */
export interface HunkLine {
  readonly marker: " " | "-" | "+";
  readonly text: string;
}

/** One file operation of a patch. */
export type PatchOperation =
  | { readonly kind: "add"; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: "delete"; readonly path: string }
  | {
      readonly kind: "update";
      readonly path: string;
      readonly moveTo: string | undefined;
      readonly hunks: readonly PatchHunk[];
    };

const begin = "*** Begin Patch";
const end = "*** End Patch";
const addPrefix = "*** Add File: ";
const deletePrefix = "*** Delete File: ";
const updatePrefix = "*** Update File: ";
const movePrefix = "*** Move to: ";
const endOfFile = "*** End of File";

function invalid(lineNumber: number, message: string): ToolsError {
  return new ToolsError({
    code: "INVALID_PATCH",
    message: `invalid patch at line ${lineNumber}: ${message}. Nothing was written.`,
  });
}

/** What the first line of a patch that does not start with `*** Begin Patch` is, when it is known. */
function startHint(first: string): string {
  if (first.startsWith("```"))
    return " (it starts with a Markdown code fence: send the patch without the ``` lines)";
  if (/^(--- |diff --git |Index: )/.test(first)) {
    return " (this is a unified diff; this tool takes its own format: '*** Update File: path', then @@ hunks of ' ', '-' and '+' lines, as in the example of its description)";
  }
  return "";
}

/**
 * Parses the Codex-style patch format:
 *
 *     *** Begin Patch
 *     *** Add File: path        (then `+` lines)
 *     *** Delete File: path
 *     *** Update File: path     (optional `*** Move to: path`, then `@@` hunks of ` `/`-`/`+` lines)
 *     *** End Patch
 *
 * Throws `INVALID_PATCH` naming the line that is wrong.
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === "") lines.pop();
  let start = 0;
  while (start < lines.length && (lines[start] as string).trim() === "") start++;
  const first = (lines[start] ?? "").trim();
  if (first !== begin) throw invalid(start + 1, `the patch must start with '${begin}'${startHint(first)}`);
  if ((lines[lines.length - 1] ?? "").trim() !== end) {
    throw invalid(lines.length, `the patch must end with '${end}'`);
  }
  const operations: PatchOperation[] = [];
  let index = start + 1;
  const last = lines.length - 1;
  while (index < last) {
    const line = lines[index] as string;
    const number = index + 1;
    if (line.startsWith(addPrefix)) {
      const path = headerPath(line, addPrefix, number);
      const added: string[] = [];
      index++;
      while (index < last && !isHeader(lines[index] as string)) {
        const body = lines[index] as string;
        if (!body.startsWith("+"))
          throw invalid(index + 1, `every line of an added file starts with '+' (file ${path})`);
        added.push(body.slice(1));
        index++;
      }
      operations.push({ kind: "add", path, lines: added });
    } else if (line.startsWith(deletePrefix)) {
      operations.push({ kind: "delete", path: headerPath(line, deletePrefix, number) });
      index++;
    } else if (line.startsWith(updatePrefix)) {
      const path = headerPath(line, updatePrefix, number);
      index++;
      let moveTo: string | undefined;
      if (index < last && (lines[index] as string).startsWith(movePrefix)) {
        moveTo = headerPath(lines[index] as string, movePrefix, index + 1);
        index++;
      }
      const parsed = parseHunks(lines, index, last, path);
      index = parsed.next;
      if (parsed.hunks.length === 0 && moveTo === undefined) {
        throw invalid(number, `Update File ${path} has no hunks`);
      }
      operations.push({ kind: "update", path, moveTo, hunks: parsed.hunks });
    } else if (line.trim() === "") {
      index++;
    } else {
      throw invalid(
        number,
        `expected '${addPrefix.trim()}', '${deletePrefix.trim()}' or '${updatePrefix.trim()}', got '${line}'`,
      );
    }
  }
  if (operations.length === 0) throw invalid(start + 1, "the patch changes no file");
  return operations;
}

function isHeader(line: string): boolean {
  return line.startsWith("*** ") && line !== endOfFile;
}

function headerPath(line: string, prefix: string, number: number): string {
  const path = line.slice(prefix.length).trim();
  if (path === "") throw invalid(number, `'${prefix.trim()}' needs a path`);
  return path;
}

function parseHunks(
  lines: readonly string[],
  from: number,
  last: number,
  path: string,
): { hunks: PatchHunk[]; next: number } {
  const hunks: PatchHunk[] = [];
  let index = from;
  let current:
    | { anchor: string; oldLines: string[]; newLines: string[]; atEnd: boolean; lines: HunkLine[] }
    | undefined;
  const flush = () => {
    if (current && (current.oldLines.length > 0 || current.newLines.length > 0)) hunks.push(current);
    current = undefined;
  };
  while (index < last && !isHeader(lines[index] as string)) {
    const line = lines[index] as string;
    if (line.startsWith("@@")) {
      flush();
      current = { anchor: line.slice(2).trim(), oldLines: [], newLines: [], atEnd: false, lines: [] };
    } else if (line === endOfFile) {
      if (!current) throw invalid(index + 1, `'${endOfFile}' outside a hunk (file ${path})`);
      current.atEnd = true;
    } else {
      // A hunk may start without an `@@` line right after the header (Codex accepts that too).
      current ??= { anchor: "", oldLines: [], newLines: [], atEnd: false, lines: [] };
      const marker = line[0];
      const body = line.slice(1);
      if (marker === " " || line === "") {
        // A bare empty line is an empty context line whose leading space an editor stripped.
        current.oldLines.push(body);
        current.newLines.push(body);
        current.lines.push({ marker: " ", text: body });
      } else if (marker === "-") {
        current.oldLines.push(body);
        current.lines.push({ marker: "-", text: body });
      } else if (marker === "+") {
        current.newLines.push(body);
        current.lines.push({ marker: "+", text: body });
      } else {
        throw invalid(index + 1, `a hunk line must start with ' ', '-' or '+', got '${line}' (file ${path})`);
      }
    }
    index++;
  }
  flush();
  return { hunks, next: index };
}

/** Every path a patch names (sources and move targets), without validating the rest. */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const line of patch.replace(/\r\n/g, "\n").split("\n")) {
    for (const prefix of [addPrefix, deletePrefix, updatePrefix, movePrefix]) {
      if (line.startsWith(prefix)) {
        const path = line.slice(prefix.length).trim();
        if (path !== "") paths.push(path);
      }
    }
  }
  return paths;
}
