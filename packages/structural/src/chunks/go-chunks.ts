import { Char, isBlank, isIdentifierPart, lineFeeds, quotedEnd, type ChunkStarts } from "./chunk-starts.js";

/** Keywords after which a line break does not end a statement (all but the four below). */
const openKeywords = new Set([
  "case",
  "chan",
  "const",
  "default",
  "defer",
  "else",
  "for",
  "func",
  "go",
  "goto",
  "if",
  "import",
  "interface",
  "map",
  "package",
  "range",
  "select",
  "struct",
  "switch",
  "type",
  "var",
]);

/**
 * Where the top-level declarations of Go source start: lines at column 0, outside brackets,
 * strings, runes and comments, after a line whose last token ends a statement by Go's semicolon
 * rule (an identifier, a literal, `break`/`continue`/`fallthrough`/`return`, `++`, `--`, `)`,
 * `]`, `}`). Undefined when the source does not lex cleanly (an unterminated string or comment,
 * unbalanced brackets): the file is then parsed whole.
 */
export function goChunkStarts(text: string): ChunkStarts | undefined {
  const indices = [0];
  const rows = [0];
  const length = text.length;
  let index = 0;
  let row = 0;
  let depth = 0;
  /** The last token so far ends a statement at a line break (true at the start). */
  let ended = true;
  let lineStart = true;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (lineStart) {
      lineStart = false;
      if (index > 0 && depth === 0 && ended && !isBlank(code)) {
        indices.push(index);
        rows.push(row);
      }
    }
    if (code === Char.LineFeed) {
      row++;
      index++;
      lineStart = true;
    } else if (isBlank(code)) {
      index++;
    } else if (code === Char.Slash && text.charCodeAt(index + 1) === Char.Slash) {
      const end = text.indexOf("\n", index);
      index = end < 0 ? length : end;
    } else if (code === Char.Slash && text.charCodeAt(index + 1) === Char.Star) {
      const end = text.indexOf("*/", index + 2);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      index = end + 2;
    } else if (code === Char.DoubleQuote || code === Char.SingleQuote) {
      const end = quotedEnd(text, index);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      index = end;
      ended = true;
    } else if (code === Char.Backtick) {
      const end = text.indexOf("`", index + 1);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      index = end + 1;
      ended = true;
    } else if (code === Char.OpenParen || code === Char.OpenBracket || code === Char.OpenBrace) {
      depth++;
      index++;
      ended = false;
    } else if (code === Char.CloseParen || code === Char.CloseBracket || code === Char.CloseBrace) {
      if (--depth < 0) return undefined;
      index++;
      ended = true;
    } else if (isIdentifierPart(code)) {
      const from = index;
      while (index < length && isIdentifierPart(text.charCodeAt(index))) index++;
      ended = !openKeywords.has(text.slice(from, index));
    } else if ((code === Char.Plus || code === Char.Minus) && text.charCodeAt(index + 1) === code) {
      index += 2;
      ended = true;
    } else {
      index++;
      ended = false;
    }
  }
  return depth === 0 ? { indices, rows } : undefined;
}
