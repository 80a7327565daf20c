import type { Replacement } from "./rewrite-file.js";

/** Unchanged lines shown around each change. */
const context = 2;

const noNewline = "\\ No newline at end of file";

/** Offsets at which each line of the text starts; a final newline starts no line. */
function lineStarts(text: string): number[] {
  const starts = text.length > 0 ? [0] : [];
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1))
    if (index + 1 < text.length) starts.push(index + 1);
  return starts;
}

/** The 0-based line holding `offset` (the last line for an offset at the end). */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return Math.max(low, 0);
}

/** The text's lines, each with its `\n` (the last one without, when the text does not end in one). */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) {
    lines.push(text.slice(start, index + 1));
    start = index + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** A diff body line: the marker and the line without its newline, then the no-newline note if due. */
function diffLines(marker: string, line: string): string[] {
  const body = `${marker}${line.replace(/\r?\n$/, "").replace(/\r$/, "")}`;
  return line.endsWith("\n") ? [body] : [body, noNewline];
}

/** `start,count` of a hunk side; an empty side names the line before it, as `diff -u` does. */
function range(firstLine: number, count: number): string {
  return `${count === 0 ? firstLine - 1 : firstLine},${count}`;
}

/**
 * A unified diff of one file's rewrite, a hunk per group of nearby replacements with 2 lines of
 * context, that `git apply` / `patch` accept (a missing final newline is marked with
 * `\ No newline at end of file`; CRLF line ends are shown as LF). At most `maxLines` lines are
 * returned, the rest counted in `omitted`.
 */
export function diffPreview(
  relativePath: string,
  source: string,
  replacements: readonly Replacement[],
  maxLines: number,
): { text: string; lines: number; omitted: number } {
  const starts = lineStarts(source);
  const out: string[] = [`--- a/${relativePath}`, `+++ b/${relativePath}`];
  let delta = 0;
  let index = 0;
  while (index < replacements.length) {
    const first = replacements[index];
    if (!first) break;
    let lastIndex = index;
    let lastLine = lineAt(starts, Math.max(first.start, first.end - 1));
    while (lastIndex + 1 < replacements.length) {
      const next = replacements[lastIndex + 1];
      if (!next || lineAt(starts, next.start) > lastLine + 2 * context + 1) break;
      lastIndex++;
      lastLine = Math.max(lastLine, lineAt(starts, Math.max(next.start, next.end - 1)));
    }
    const toLine = Math.min(starts.length - 1, lastLine + context);
    const fromLine = Math.max(0, Math.min(toLine, lineAt(starts, first.start) - context));
    const startOffset = starts[fromLine] ?? 0;
    const endOffset = starts[toLine + 1] ?? source.length;
    let segment = "";
    let cursor = startOffset;
    for (let r = index; r <= lastIndex; r++) {
      const replacement = replacements[r];
      if (!replacement) continue;
      segment += source.slice(cursor, replacement.start) + replacement.text;
      cursor = replacement.end;
    }
    segment += source.slice(cursor, endOffset);
    index = lastIndex + 1;
    const before = splitLines(source.slice(startOffset, endOffset));
    const after = splitLines(segment);
    let prefix = 0;
    while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
    if (prefix === before.length && prefix === after.length) continue;
    let suffix = 0;
    while (
      suffix < before.length - prefix &&
      suffix < after.length - prefix &&
      before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
    ) {
      suffix++;
    }
    out.push(`@@ -${range(fromLine + 1, before.length)} +${range(fromLine + 1 + delta, after.length)} @@`);
    for (const line of before.slice(0, prefix)) out.push(...diffLines(" ", line));
    for (const line of before.slice(prefix, before.length - suffix)) out.push(...diffLines("-", line));
    for (const line of after.slice(prefix, after.length - suffix)) out.push(...diffLines("+", line));
    for (const line of before.slice(before.length - suffix)) out.push(...diffLines(" ", line));
    delta += after.length - before.length;
  }
  const shown = out.slice(0, maxLines);
  return { text: shown.join("\n"), lines: shown.length, omitted: out.length - shown.length };
}
