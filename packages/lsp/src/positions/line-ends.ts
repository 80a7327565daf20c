/**
 * Line ends as LSP counts them (the spec's `EOL`): `\r\n`, `\n` and a lone `\r` (old Mac files).
 * Every split of a file into lines in this package uses it, so that a line number means what
 * the server means by it.
 */
export const lineEnd = /\r\n|\n|\r/;

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
    const next = nextLineEnd(text, start);
    if (next === undefined) return undefined;
    start = next.after;
  }
  return { start, end: nextLineEnd(text, start)?.at ?? text.length };
}

/**
 * Where each line of `text` starts and where its content ends (before its line end), as UTF-16
 * offsets, index = 0-based line: {@link lineSpan} for every line in one pass, for many lookups.
 */
export function lineSpans(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (let from = 0; ;) {
    const next = nextLineEnd(text, from);
    if (next === undefined) break;
    ends.push(next.at);
    starts.push(next.after);
    from = next.after;
  }
  ends.push(text.length);
  return { starts, ends };
}

/** The first line end at or after `from`: where it is and where the next line starts. */
function nextLineEnd(text: string, from: number): { at: number; after: number } | undefined {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) return { at: i, after: i + 1 };
    if (code === 13) return { at: i, after: text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1 };
  }
  return undefined;
}
