import { ToolsError } from "@tools/registry";
import { listLineNumbers } from "../internal/line-numbers.js";
import { closestLine } from "../internal/similar-line.js";
import type { PatchHunk } from "./parse-patch.js";

/** Ways of comparing a hunk line with a file line, strictest first. */
const comparisons: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
];

/** The comparison that ignores leading whitespace too (index into {@link comparisons}). */
const ignoringIndentation = 2;

/** Where `needle` first occurs in `lines` (at or after `from`), with the comparison that found it. */
interface Match {
  readonly start: number;
  readonly level: number;
  /** Every start at which the needle matches with that comparison (at most a few). */
  readonly starts: readonly number[];
}

/** Matches counted before a hunk is known to be ambiguous and the search stops. */
const maxCandidates = 5;

/** Where `needle` occurs in `lines` at or after `from` (or only at the end), or undefined. */
function seek(
  lines: readonly string[],
  needle: readonly string[],
  from: number,
  atEnd: boolean,
): Match | undefined {
  if (needle.length === 0) return { start: atEnd ? lines.length : from, level: 0, starts: [] };
  for (let level = 0; level < comparisons.length; level++) {
    const normalise = comparisons[level] as (line: string) => string;
    const wanted = needle.map(normalise);
    const first = atEnd ? lines.length - needle.length : from;
    const starts: number[] = [];
    for (let start = Math.max(first, from); start + needle.length <= lines.length; start++) {
      let matches = true;
      for (let offset = 0; offset < wanted.length; offset++) {
        if (normalise(lines[start + offset] as string) !== wanted[offset]) {
          matches = false;
          break;
        }
      }
      if (matches) {
        starts.push(start);
        if (starts.length >= maxCandidates) break;
      }
      if (atEnd) break;
    }
    if (starts.length > 0) return { start: starts[0] as number, level, starts };
  }
  return undefined;
}

/** A file's lines after its hunks, each with its own line end, and what the caller should be told. */
export interface PatchedLines {
  readonly lines: string[];
  /** The line end of each line (`"\n"`, `"\r\n"`, or `""` for a last line without one). */
  readonly endings: string[];
  /** Notes for the result (a hunk matched only when indentation was ignored). */
  readonly notes: string[];
}

/** Leading whitespace of a line. */
function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/**
 * The patch's indentation mapped to the file's: each context or removed line of the hunk pairs
 * the patch's leading whitespace with the file line's it matched. A new line takes the file's
 * indentation for the longest patch indentation its own starts with (the rest kept as given).
 */
function indentationMap(hunk: PatchHunk, lines: readonly string[], at: number): Map<string, string> {
  const map = new Map<string, string>();
  let fileIndex = at;
  for (const line of hunk.lines) {
    if (line.marker === "+") continue;
    const fileLine = lines[fileIndex] as string;
    fileIndex++;
    // A blank line says nothing about indentation (its whitespace, if any, is not the code's).
    if (line.text.trim() === "" || fileLine.trim() === "") continue;
    const patchIndent = indentOf(line.text);
    if (!map.has(patchIndent)) map.set(patchIndent, indentOf(fileLine));
  }
  return map;
}

function reindent(text: string, map: ReadonlyMap<string, string>): string {
  // A blank new line stays as given; flush-left patch lines map like any other ("" is a key too).
  if (text.trim() === "") return text;
  const indent = indentOf(text);
  let best: string | undefined;
  for (const key of map.keys()) {
    if (indent.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  if (best === undefined) return text;
  return (map.get(best) as string) + text.slice(best.length);
}

/**
 * Applies the hunks of one file, in order, to its lines and returns the new lines with their line
 * ends. A hunk of added lines only goes right after its @@ line, or at the end of the file when it
 * has none. Lines the hunks leave keep their own line end; a new line takes the line end of the
 * first line its change removes, else `eol` (the file's majority). A hunk that matched only with
 * leading whitespace ignored keeps the file's indentation on its new lines and adds a note.
 * Throws `PATCH_CONTEXT_NOT_FOUND` naming the file, the hunk and the lines that were not found,
 * and `PATCH_AMBIGUOUS` when a hunk without an @@ line matches more than one place from where it is
 * looked for (after the previous hunk).
 */
export function applyHunks(
  path: string,
  original: readonly string[],
  hunks: readonly PatchHunk[],
  options: { readonly endings?: readonly string[]; readonly eol?: string } = {},
): PatchedLines {
  const eol = options.eol ?? "\n";
  const lines = [...original];
  const endings = original.map((_, index) => options.endings?.[index] ?? eol);
  const notes: string[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const label = `${path}, hunk ${index + 1} of ${hunks.length}`;
    if (hunk.anchor !== "") {
      const anchorAt = seek(lines, [hunk.anchor], cursor, false);
      if (anchorAt === undefined) {
        if (/^-\d+(,\d+)? \+\d+(,\d+)? @@/.test(hunk.anchor)) throw lineNumberHeader(label, hunk.anchor);
        throw contextNotFound(label, `the @@ line '${hunk.anchor}'`, lines, hunk.anchor);
      }
      cursor = anchorAt.start + (hunk.oldLines.length > 0 ? 0 : 1);
    }
    // Only added lines and no @@ line: appended at the end of the file, as Codex applies them.
    const match =
      hunk.oldLines.length === 0 && hunk.anchor === ""
        ? { start: lines.length, level: 0, starts: [] }
        : seek(lines, hunk.oldLines, cursor, hunk.atEnd);
    if (match === undefined) {
      const shown = hunk.oldLines.map((line) => `    ${line}`).join("\n");
      const firstLine = hunk.oldLines.find((line) => line.trim() !== "") ?? "";
      throw contextNotFound(
        label,
        `these lines${hunk.atEnd ? " at the end of the file" : ""}:\n${shown}\n`,
        lines,
        firstLine,
      );
    }
    // An @@ line places the hunk: the first match after it is the one meant.
    if (match.starts.length > 1 && hunk.anchor === "") throw ambiguous(label, match.starts);
    const at = match.start;
    const indentation = match.level >= ignoringIndentation ? indentationMap(hunk, lines, at) : undefined;
    // Context lines keep the file's own text (its trailing spaces) and line end, not the patch's.
    const replacement: string[] = [];
    const replacementEndings: string[] = [];
    let fileIndex = at;
    let blockEol: string | undefined;
    hunk.lines.forEach((line, lineIndex) => {
      if (line.marker === "+") {
        blockEol ??= removedEnding(hunk, lineIndex, endings, fileIndex) ?? eol;
        replacement.push(indentation ? reindent(line.text, indentation) : line.text);
        replacementEndings.push(blockEol);
        return;
      }
      if (line.marker === " ") {
        blockEol = undefined;
        replacement.push(lines[fileIndex] as string);
        replacementEndings.push(endings[fileIndex] ?? eol);
      } else {
        blockEol ??= endings[fileIndex] ?? eol;
      }
      fileIndex++;
    });
    lines.splice(at, hunk.oldLines.length, ...replacement);
    endings.splice(at, hunk.oldLines.length, ...replacementEndings);
    if (indentation) {
      notes.push(
        `hunk ${index + 1} matched only with indentation ignored; its new lines take the file's indentation`,
      );
    }
    cursor = at + hunk.newLines.length;
  });
  return { lines, endings, notes };
}

/**
 * The line end of the first line removed in the change block that holds `lineIndex` (the run of
 * `-`/`+` lines around it), looked for after it; `fileIndex` is the file line the next `-` removes.
 */
function removedEnding(
  hunk: PatchHunk,
  lineIndex: number,
  endings: readonly string[],
  fileIndex: number,
): string | undefined {
  for (let next = lineIndex + 1; next < hunk.lines.length; next++) {
    const marker = hunk.lines[next]?.marker;
    if (marker === " ") return undefined;
    if (marker === "-") return endings[fileIndex];
  }
  return undefined;
}

function ambiguous(label: string, starts: readonly number[]): ToolsError {
  const candidates = listLineNumbers(starts.map((start) => start + 1));
  const more = starts.length >= maxCandidates ? " (and maybe more)" : "";
  return new ToolsError({
    code: "PATCH_AMBIGUOUS",
    message: `${label}: its context and removed lines occur more than once, starting at lines ${candidates}${more}; add context lines (or an @@ line naming the function or class) so that they match one place only. Nothing was written.`,
  });
}

function lineNumberHeader(label: string, anchor: string): ToolsError {
  return new ToolsError({
    code: "PATCH_CONTEXT_NOT_FOUND",
    message: `${label}: '@@ ${anchor}' is a unified-diff header with line numbers; in this patch format the text after @@ is a line of code from the file to find first (such as '@@ function main() {'), or nothing ('@@' alone), never line numbers. Nothing was written; send the patch again with such @@ lines.`,
  });
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
