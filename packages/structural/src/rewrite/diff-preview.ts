import { cutLine } from "./cut-line.js";
import { lineOps } from "./line-diff.js";
import { lineHolding } from "./line-search.js";
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

/** Characters of a line shown in a preview before it is cut around its change. */
export const previewLineChars = 200;

/** A line of the whole diff, with the count of old and new lines before it. */
interface Entry {
  readonly kind: " " | "-" | "+";
  readonly line: string;
  readonly old: number;
  readonly new: number;
  /** The column where a changed line starts to differ from its counterpart (0 for context). */
  changeAt: number;
}

/** The line's text without its line end (a CRLF's `\r` is kept: the preview keeps the file's line ends). */
function body(line: string): string {
  return line.endsWith("\n") ? line.slice(0, -1) : line;
}

/** The diff body lines of an entry: the marker and the line, cut if long, then the no-newline note if due. */
function bodyLines(entry: Entry, maxLineChars: number): string[] {
  const text = body(entry.line);
  const cr = text.endsWith("\r") ? "\r" : "";
  const shown = `${entry.kind}${cutLine(text.slice(0, text.length - cr.length), entry.changeAt, maxLineChars)}${cr}`;
  return entry.line.endsWith("\n") ? [shown] : [shown, noNewline];
}

/** `start,count` of a hunk side; an empty side names the line before it, as `diff -u` does. */
function range(firstLine: number, count: number): string {
  return `${count === 0 ? firstLine - 1 : firstLine},${count}`;
}

/** The integers `from..to` (exclusive). */
function range0(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, index) => from + index);
}

/** Old lines `from..to` (inclusive, 0-based) that each group of overlapping replacements touches. */
function blocks(
  starts: readonly number[],
  replacements: readonly Replacement[],
): { from: number; to: number; replacements: Replacement[] }[] {
  const out: { from: number; to: number; replacements: Replacement[] }[] = [];
  for (const replacement of replacements) {
    const from = lineHolding(starts, replacement.start);
    // The line holding `end` is taken too: a replacement that drops a line end joins it to the next.
    const to = Math.max(from, lineHolding(starts, replacement.end));
    const last = out.at(-1);
    if (last && from <= last.to) {
      last.to = Math.max(last.to, to);
      last.replacements.push(replacement);
    } else out.push({ from, to, replacements: [replacement] });
  }
  return out;
}

/** Sets `changeAt` on each removed line paired with an added one of the same change, and back. */
function markChanges(entries: readonly Entry[]): void {
  let index = 0;
  while (index < entries.length) {
    if (entries[index]?.kind === " ") {
      index++;
      continue;
    }
    const removed: Entry[] = [];
    const added: Entry[] = [];
    while (index < entries.length && entries[index]?.kind !== " ") {
      const entry = entries[index++];
      if (entry) (entry.kind === "-" ? removed : added).push(entry);
    }
    for (let pair = 0; pair < Math.min(removed.length, added.length); pair++) {
      const left = removed[pair];
      const right = added[pair];
      if (!left || !right) continue;
      const a = body(left.line);
      const b = body(right.line);
      let same = 0;
      while (same < a.length && same < b.length && a.charCodeAt(same) === b.charCodeAt(same)) same++;
      left.changeAt = same;
      right.changeAt = same;
    }
  }
}

/** The entries split into hunks: changes with up to `context` unchanged lines around them. */
function hunks(entries: readonly Entry[]): Entry[][] {
  const out: Entry[][] = [];
  let current: Entry[] = [];
  let index = 0;
  while (index < entries.length) {
    const run: Entry[] = [];
    while (index < entries.length && entries[index]?.kind === " ") run.push(entries[index++] as Entry);
    const contiguous = run.every((entry, at) => at === 0 || entry.old === (run[at - 1]?.old ?? 0) + 1);
    const atEnd = index >= entries.length;
    if (current.length === 0) current.push(...run.slice(Math.max(0, run.length - context)));
    else if (atEnd) current.push(...run.slice(0, context));
    else if (run.length <= 2 * context && contiguous) current.push(...run);
    else {
      current.push(...run.slice(0, context));
      out.push(current);
      current = run.slice(Math.max(0, run.length - context));
    }
    while (index < entries.length && entries[index]?.kind !== " ") current.push(entries[index++] as Entry);
  }
  if (current.some((entry) => entry.kind !== " ")) out.push(current);
  return out.filter((hunk) => hunk.some((entry) => entry.kind !== " "));
}

/** Limits of a preview; `maxChars` counts every character shown, line ends included. */
export interface PreviewLimits {
  readonly maxLines: number;
  readonly maxChars?: number;
  /** Characters of one line's text shown before it is cut around its change (default 200). */
  readonly maxLineChars?: number;
}

/**
 * A unified diff of one file's rewrite: only changed lines are `-`/`+`, with up to 2 unchanged
 * lines of context around each change (changes closer than that share a hunk). It keeps the
 * file's line ends (a CRLF line is shown with its `\r`) and marks a missing final newline with
 * `\ No newline at end of file`, so `git apply` / `patch` accept it, except where a line longer than
 * `maxLineChars` (200) is cut around its change and marked `[… N chars …]`. At most `maxLines`
 * lines and `maxChars` characters are returned (whole lines), the lines left out counted in
 * `omitted`; the edit itself is never cut, only its preview.
 */
export function diffPreview(
  relativePath: string,
  source: string,
  replacements: readonly Replacement[],
  limits: number | PreviewLimits,
): { text: string; lines: number; chars: number; omitted: number } {
  const {
    maxLines,
    maxChars = Number.POSITIVE_INFINITY,
    maxLineChars = previewLineChars,
  } = typeof limits === "number" ? { maxLines: limits } : limits;
  const starts = lineStarts(source);
  const entries: Entry[] = [];
  let delta = 0;
  let nextOld = 0;
  /** Unchanged old lines `from..to` (exclusive): the `context` after a change and before the next. */
  const keep = (from: number, to: number, afterChange: boolean, beforeChange: boolean): void => {
    const headEnd = afterChange ? Math.min(to, from + context) : from;
    const tailStart = beforeChange ? Math.max(headEnd, to - context) : to;
    for (const line of [...range0(from, headEnd), ...range0(tailStart, to)]) {
      const text = source.slice(starts[line] ?? source.length, starts[line + 1] ?? source.length);
      entries.push({ kind: " ", line: text, old: line, new: line + delta, changeAt: 0 });
    }
  };
  for (const block of blocks(starts, replacements)) {
    keep(nextOld, block.from, entries.length > 0, true);
    const startOffset = starts[block.from] ?? 0;
    const endOffset = starts[block.to + 1] ?? source.length;
    let segment = "";
    let cursor = startOffset;
    for (const replacement of block.replacements) {
      segment += source.slice(cursor, replacement.start) + replacement.text;
      cursor = replacement.end;
    }
    segment += source.slice(cursor, endOffset);
    const before = splitLines(source.slice(startOffset, endOffset));
    const after = splitLines(segment);
    let old = block.from;
    let fresh = block.from + delta;
    for (const op of lineOps(before, after)) {
      entries.push({ kind: op.kind, line: op.line, old, new: fresh, changeAt: 0 });
      if (op.kind !== "+") old++;
      if (op.kind !== "-") fresh++;
    }
    delta += after.length - before.length;
    nextOld = block.to + 1;
  }
  if (entries.length > 0) keep(nextOld, starts.length, true, false);
  markChanges(entries);

  const out: string[] = [`--- a/${relativePath}`, `+++ b/${relativePath}`];
  /** Indices in `out` of header lines (file names, `@@`), which the preview never ends on. */
  const headers = new Set([0, 1]);
  for (const hunk of hunks(entries)) {
    const first = hunk[0];
    if (!first) continue;
    const oldCount = hunk.filter((entry) => entry.kind !== "+").length;
    const newCount = hunk.filter((entry) => entry.kind !== "-").length;
    headers.add(out.length);
    out.push(`@@ -${range(first.old + 1, oldCount)} +${range(first.new + 1, newCount)} @@`);
    for (const entry of hunk) out.push(...bodyLines(entry, maxLineChars));
  }
  if (out.length === 2) return { text: "", lines: 0, chars: 0, omitted: 0 };
  let shown = 0;
  let chars = 0;
  while (shown < out.length && shown < maxLines) {
    const next = (out[shown]?.length ?? 0) + (shown > 0 ? 1 : 0);
    if (chars + next > maxChars) break;
    chars += next;
    shown++;
  }
  // A header without a line of its hunk after it previews nothing: it goes with the lines left out.
  while (shown > 0 && headers.has(shown - 1)) {
    shown--;
    chars -= (out[shown]?.length ?? 0) + (shown > 0 ? 1 : 0);
  }
  return { text: out.slice(0, shown).join("\n"), lines: shown, chars, omitted: out.length - shown };
}
