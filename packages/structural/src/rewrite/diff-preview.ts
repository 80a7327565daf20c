import type { Replacement } from "./rewrite-file.js";

const context = 2;

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let index = text.indexOf("\n"); index >= 0 && index < offset; index = text.indexOf("\n", index + 1))
    line++;
  return line;
}

/**
 * A unified diff of one file's rewrite, hunk per group of nearby replacements, at most
 * `maxLines` lines (the rest counted).
 */
export function diffPreview(
  relativePath: string,
  source: string,
  replacements: readonly Replacement[],
  maxLines: number,
): { text: string; lines: number; omitted: number } {
  const oldLines = source.split("\n");
  const out: string[] = [`--- a/${relativePath}`, `+++ b/${relativePath}`];
  let delta = 0;
  let index = 0;
  while (index < replacements.length) {
    const first = replacements[index];
    if (!first) break;
    let lastIndex = index;
    let lastLine = lineOf(source, Math.max(first.start, first.end - 1));
    while (lastIndex + 1 < replacements.length) {
      const next = replacements[lastIndex + 1];
      if (!next || lineOf(source, next.start) > lastLine + 2 * context + 1) break;
      lastIndex++;
      lastLine = lineOf(source, Math.max(next.start, next.end - 1));
    }
    const fromLine = Math.max(0, lineOf(source, first.start) - context);
    const toLine = Math.min(oldLines.length - 1, lastLine + context);
    const startOffset = oldLines.slice(0, fromLine).reduce((sum, line) => sum + line.length + 1, 0);
    const endOffset = startOffset + oldLines.slice(fromLine, toLine + 1).join("\n").length;
    let segment = "";
    let cursor = startOffset;
    for (let r = index; r <= lastIndex; r++) {
      const replacement = replacements[r];
      if (!replacement) continue;
      segment += source.slice(cursor, replacement.start) + replacement.text;
      cursor = replacement.end;
    }
    segment += source.slice(cursor, endOffset);
    const before = source.slice(startOffset, endOffset).split("\n");
    const after = segment.split("\n");
    let prefix = 0;
    while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
    let suffix = 0;
    while (
      suffix < before.length - prefix &&
      suffix < after.length - prefix &&
      before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
    ) {
      suffix++;
    }
    out.push(`@@ -${fromLine + 1},${before.length} +${fromLine + 1 + delta},${after.length} @@`);
    for (const line of before.slice(0, prefix)) out.push(` ${line}`);
    for (const line of before.slice(prefix, before.length - suffix)) out.push(`-${line}`);
    for (const line of after.slice(prefix, after.length - suffix)) out.push(`+${line}`);
    for (const line of before.slice(before.length - suffix)) out.push(` ${line}`);
    delta += after.length - before.length;
    index = lastIndex + 1;
  }
  const clean = out.map((line) => line.replace(/\r$/, ""));
  const shown = clean.slice(0, maxLines);
  return { text: shown.join("\n"), lines: shown.length, omitted: clean.length - shown.length };
}
