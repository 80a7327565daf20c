import { Char, isBlank, isIdentifierPart, lineFeeds, wordAt, type ChunkStarts } from "./chunk-starts.js";

/** Clauses that continue the compound statement above them at the same indentation. */
const continuingClauses = ["else", "elif", "except", "finally"];

/** `r`, `u`, `b`, `f` and the two-letter combinations Python accepts, in any case. */
const stringPrefixes = new Set(["r", "u", "b", "f", "br", "rb", "fr", "rf"]);

/** ASCII characters the lexer stops at; everything else is skipped in one step. */
const special = new Uint8Array(128);
for (const code of [
  Char.LineFeed,
  Char.Hash,
  Char.Backslash,
  Char.OpenParen,
  Char.CloseParen,
  Char.OpenBracket,
  Char.CloseBracket,
  Char.OpenBrace,
  Char.CloseBrace,
  Char.DoubleQuote,
  Char.SingleQuote,
])
  special[code] = 1;

/** The string prefix letters glued in front of the quote at `quote`, if they form one. */
function prefixOf(text: string, quote: number): string {
  let from = quote;
  while (from > quote - 2 && from > 0 && /[rRuUbBfF]/.test(text.charAt(from - 1))) from--;
  if (from === quote || (from > 0 && isIdentifierPart(text.charCodeAt(from - 1)))) return "";
  const prefix = text.slice(from, quote).toLowerCase();
  return stringPrefixes.has(prefix) ? prefix : "";
}

/**
 * Where the top-level statements of Python source start: lines at column 0, outside brackets,
 * strings and backslash continuations, that are not a comment, a continuing clause (`else`,
 * `elif`, `except`, `finally`) or the statement a decorator line decorates.
 *
 * The lexer knows just enough Python for that: comments, every string form (prefixes, triple
 * quotes, escapes, f-string replacement fields with nested strings as Python 3.12 allows, format
 * specs), brackets and backslash continuations. It never guesses: any anomaly (an unterminated
 * string, an unbalanced bracket) gives undefined, and the file is parsed whole.
 */
export function pythonChunkStarts(text: string): ChunkStarts | undefined {
  const lines = pythonStatementLines(text);
  if (!lines) return undefined;
  const indices = [0];
  const rows = [0];
  for (let k = 0; k < lines.indices.length; k++) {
    const at = lines.indices[k] ?? 0;
    if (at > 0 && lines.indents[k] === 0 && !lines.joined[k]) {
      indices.push(at);
      rows.push(lines.rows[k] ?? 0);
    }
  }
  return { indices, rows };
}

/**
 * The lines of Python source that begin a statement (outside brackets, strings, continuations;
 * not blank, not a comment), with their indentation, and whether each continues the statement
 * before it (a continuing clause, or the definition under a decorator at the same indentation).
 */
export interface PythonStatementLines {
  readonly indices: number[];
  readonly rows: number[];
  /** Width of the leading whitespace, or -1 when it holds a tab (widths are then not comparable). */
  readonly indents: number[];
  readonly joined: boolean[];
  /** Rows in the text (its last line's 0-based row). */
  readonly lastRow: number;
}

/** Where the line break after a backslash at `at - 1` ends (LF or CRLF), or -1 if none. */
function lineBreakEnd(text: string, at: number): number {
  const next = text.charCodeAt(at);
  if (next === Char.LineFeed) return at + 1;
  if (next === Char.CarriageReturn && text.charCodeAt(at + 1) === Char.LineFeed) return at + 2;
  return -1;
}

/** Where the comment at `at` ends (at its line feed, or the end of the text). */
function commentEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}

/** Where the string literal whose quote is at `at` ends (after its closing quote), or -1. */
function stringEnd(text: string, at: number, formatted: boolean): number {
  const length = text.length;
  const quote = text.charCodeAt(at);
  const triple = text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote;
  let index = at + (triple ? 3 : 1);
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === Char.Backslash) {
      const end = lineBreakEnd(text, index + 1);
      index = end < 0 ? index + 2 : end;
    } else if (code === quote) {
      if (!triple) return index + 1;
      if (text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote) return index + 3;
      index++;
    } else if (code === Char.LineFeed) {
      if (!triple) return -1;
      index++;
    } else if (formatted && code === Char.OpenBrace) {
      if (text.charCodeAt(index + 1) === Char.OpenBrace) index += 2;
      else {
        index = fieldEnd(text, index + 1);
        if (index < 0) return -1;
      }
    } else index++;
  }
  return -1;
}

/** Where the string opened by the quote at `at` ends, with the prefix glued before it. */
function quotedEnd(text: string, at: number): number {
  return stringEnd(text, at, prefixOf(text, at).includes("f"));
}

/**
 * Where an f-string replacement field that starts at `at` (after its `{`) ends, after its `}`,
 * or -1: an expression (brackets and strings nest), an optional `!conversion`, an optional
 * `:format spec` that may hold nested fields.
 */
function fieldEnd(text: string, at: number): number {
  const length = text.length;
  let depth = 0;
  let index = at;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === Char.CloseBrace && depth === 0) return index + 1;
    if (code === Char.Colon && depth === 0) return specEnd(text, index + 1);
    if (code === Char.OpenParen || code === Char.OpenBracket || code === Char.OpenBrace) {
      depth++;
      index++;
    } else if (code === Char.CloseParen || code === Char.CloseBracket || code === Char.CloseBrace) {
      if (--depth < 0) return -1;
      index++;
    } else if (code === Char.DoubleQuote || code === Char.SingleQuote) {
      index = quotedEnd(text, index);
      if (index < 0) return -1;
    } else if (code === Char.Hash) {
      index = commentEnd(text, index);
    } else index++;
  }
  return -1;
}

/** Where a format spec that starts at `at` (after its `:`) ends, after the field's `}`, or -1. */
function specEnd(text: string, at: number): number {
  let index = at;
  while (index < text.length) {
    const code = text.charCodeAt(index++);
    if (code === Char.CloseBrace) return index;
    if (code === Char.OpenBrace) {
      index = fieldEnd(text, index);
      if (index < 0) return -1;
    }
  }
  return -1;
}

/** See {@link PythonStatementLines}; undefined when the source does not lex cleanly. */
export function pythonStatementLines(text: string): PythonStatementLines | undefined {
  const length = text.length;
  const indices: number[] = [];
  const rows: number[] = [];
  const indents: number[] = [];
  const joined: boolean[] = [];
  let index = 0;
  let row = 0;
  let depth = 0;
  let continued = false;
  /** Indentation of the last statement line if it was a decorator, else -2. */
  let decoratorIndent = -2;
  let lineStart = true;
  while (index < length || lineStart) {
    if (lineStart) {
      // A line starts at `index`: does a statement start on it?
      lineStart = false;
      if (depth === 0 && !continued) {
        let at = index;
        let tab = false;
        for (
          let code = text.charCodeAt(at);
          code === Char.Space || code === Char.Tab || code === Char.FormFeed;
        ) {
          if (code !== Char.Space) tab = true;
          code = text.charCodeAt(++at);
        }
        const code = text.charCodeAt(at);
        if (at < length && !isBlank(code) && code !== Char.Hash) {
          const indent = tab ? -1 : at - index;
          const clause = continuingClauses.some((word) => wordAt(text, at, word));
          indices.push(index);
          rows.push(row);
          indents.push(indent);
          joined.push(clause || (indent >= 0 && indent === decoratorIndent));
          decoratorIndent = code === Char.At ? indent : -2;
        }
      }
      continued = false;
      continue;
    }
    const code = text.charCodeAt(index);
    if (code >= 128 || special[code] === 0) {
      index++;
    } else if (code === Char.LineFeed) {
      row++;
      index++;
      lineStart = true;
    } else if (code === Char.Hash) {
      index = commentEnd(text, index);
    } else if (code === Char.Backslash) {
      const end = lineBreakEnd(text, index + 1);
      if (end < 0) index++;
      else {
        index = end;
        row++;
        continued = true;
        lineStart = true;
      }
    } else if (code === Char.OpenParen || code === Char.OpenBracket || code === Char.OpenBrace) {
      depth++;
      index++;
    } else if (code === Char.CloseParen || code === Char.CloseBracket || code === Char.CloseBrace) {
      if (--depth < 0) return undefined;
      index++;
    } else {
      const end = quotedEnd(text, index);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      index = end;
    }
  }
  return depth === 0 ? { indices, rows, indents, joined, lastRow: row } : undefined;
}
