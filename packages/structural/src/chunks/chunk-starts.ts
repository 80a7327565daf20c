/**
 * Where a file's top-level statements start: the pieces a file can be parsed in when a pattern
 * can only match inside one of them. `indices[k]` (UTF-16 offset, always at a line start) and
 * `rows[k]` (0-based line of that offset, counted by `\n` as tree-sitter counts rows) open piece
 * `k`, which runs to the next start or the end of the text. The first start is always 0.
 */
export interface ChunkStarts {
  readonly indices: readonly number[];
  readonly rows: readonly number[];
}

/** Character codes the lexers compare against. */
export const Char = {
  Tab: 9,
  LineFeed: 10,
  FormFeed: 12,
  CarriageReturn: 13,
  Space: 32,
  Bang: 33,
  DoubleQuote: 34,
  Hash: 35,
  Dollar: 36,
  SingleQuote: 39,
  OpenParen: 40,
  CloseParen: 41,
  Star: 42,
  Plus: 43,
  Minus: 45,
  Dot: 46,
  Slash: 47,
  Digit0: 48,
  Digit9: 57,
  Colon: 58,
  Semicolon: 59,
  Equals: 61,
  At: 64,
  UpperA: 65,
  UpperZ: 90,
  OpenBracket: 91,
  Backslash: 92,
  CloseBracket: 93,
  Underscore: 95,
  Backtick: 96,
  LowerA: 97,
  LowerZ: 122,
  OpenBrace: 123,
  CloseBrace: 125,
} as const;

/** A letter, `_`, a digit or any non-ASCII code unit (identifiers may hold Unicode letters). */
export function isIdentifierPart(code: number): boolean {
  return (
    (code >= Char.LowerA && code <= Char.LowerZ) ||
    (code >= Char.UpperA && code <= Char.UpperZ) ||
    (code >= Char.Digit0 && code <= Char.Digit9) ||
    code === Char.Underscore ||
    code >= 128
  );
}

/** Whether `word` is spelled at `index` and not followed by an identifier character. */
export function wordAt(text: string, index: number, word: string): boolean {
  return text.startsWith(word, index) && !isIdentifierPart(text.charCodeAt(index + word.length));
}

/** Space, tab, form feed or a line break: a line starting with it does not start a statement. */
export function isBlank(code: number): boolean {
  return (
    code === Char.Space ||
    code === Char.Tab ||
    code === Char.LineFeed ||
    code === Char.CarriageReturn ||
    code === Char.FormFeed
  );
}

/** Line feeds in `text[from, to)`. */
export function lineFeeds(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = from; at < to; at++) if (text.charCodeAt(at) === Char.LineFeed) count++;
  return count;
}

/**
 * Where the one-line string literal whose quote is at `at` ends (after the closing quote), or -1
 * at a bare line break or the end of the text. A backslash escapes the next character (an
 * escaped CRLF counts as one).
 */
export function quotedEnd(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  for (let index = at + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === Char.Backslash) {
      if (text.charCodeAt(index + 1) === Char.CarriageReturn && text.charCodeAt(index + 2) === Char.LineFeed)
        index++;
      index++;
    } else if (code === quote) return index + 1;
    else if (code === Char.LineFeed) return -1;
  }
  return -1;
}
