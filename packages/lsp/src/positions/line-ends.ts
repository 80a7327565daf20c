/**
 * Line ends as the user sees them (the harness's `read` numbers lines so): `\n`, with a `\r`
 * just before it left out of the line's text. A lone `\r`, U+2028 and U+2029 end no line here;
 * a server counting them (tsserver, pyright) sees other line numbers, converted by
 * `positions/text-view.ts`. Every split of a file into lines in this package uses it.
 */
export const lineEnd = /\r?\n/;

/** `text` split into its lines at {@link lineEnd}; a text ending in a line end has an empty last line. */
export function splitLines(text: string): string[] {
  return text.split(lineEnd);
}

/**
 * The UTF-16 offset where 0-based `line` of `text` starts, and where its content ends (before
 * its line end), or undefined when the text has fewer lines.
 */
export function lineSpan(text: string, line: number): { start: number; end: number } | undefined {
  let start = 0;
  for (let current = 0; current < line; current++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return undefined;
    start = next + 1;
  }
  return { start, end: contentEnd(text, start, text.indexOf("\n", start)) };
}

/**
 * Where each line of `text` starts and where its content ends (before its line end), as UTF-16
 * offsets, index = 0-based line: {@link lineSpan} for every line in one pass, for many lookups.
 */
export function lineSpans(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (let from = 0; ;) {
    const next = text.indexOf("\n", from);
    if (next === -1) break;
    ends.push(contentEnd(text, from, next));
    starts.push(next + 1);
    from = next + 1;
  }
  ends.push(text.length);
  return { starts, ends };
}

/** The end of a line's content: before the `\n` at `newline` (-1: none) and a `\r` just before it. */
function contentEnd(text: string, start: number, newline: number): number {
  if (newline === -1) return text.length;
  return newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
}
