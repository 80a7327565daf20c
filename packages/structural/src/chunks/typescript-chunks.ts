import {
  Char,
  isBlank,
  isIdentifierPart,
  lineFeeds,
  quotedEnd,
  wordAt,
  type ChunkStarts,
} from "./chunk-starts.js";

/** A line at column 0 starting with one of these (or `@`) may open a top-level statement. */
const declarationWords = [
  "export",
  "import",
  "function",
  "class",
  "interface",
  "type",
  "declare",
  "const",
  "let",
  "var",
  "enum",
  "namespace",
  "module",
  "abstract",
  "async",
];

/** Words after which the statement goes on (modifiers, operators spelled as words, heads). */
const continuingWords = new Set([
  "abstract",
  "accessor",
  "as",
  "asserts",
  "async",
  "await",
  "case",
  "class",
  "const",
  "declare",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "function",
  "get",
  "implements",
  "import",
  "in",
  "infer",
  "instanceof",
  "interface",
  "is",
  "keyof",
  "let",
  "module",
  "namespace",
  "new",
  "of",
  "override",
  "private",
  "protected",
  "public",
  "readonly",
  "return",
  "satisfies",
  "set",
  "static",
  "throw",
  "type",
  "typeof",
  "unique",
  "var",
  "void",
  "with",
  "yield",
]);

/** Words that go on with the expression or type before them, even at the start of a line. */
const operatorWords = new Set([
  "as",
  "satisfies",
  "in",
  "instanceof",
  "extends",
  "implements",
  "of",
  "keyof",
  "is",
  "typeof",
]);

/**
 * Words that never begin a member or statement: a line starting with one goes on with the
 * statement before it (`}` then `else {`, `catch (e) {`, `finally {`; `while (c);` after a `do`
 * body). A `while` loop of its own after a statement is then kept with that statement, which is
 * safe: a member too large only costs parse time, one cut in two loses matches.
 */
const continuationWords = new Set(["else", "catch", "finally", "while"]);

/** Words whose `( … )` is a statement header: the statement goes on after the `)`. */
const headerWords = new Set(["if", "for", "while", "with", "catch"]);

/** What the last token was, for the regex-or-division question and for statement ends. */
type Previous = "start" | "semicolon" | "comma" | "open-brace" | "close-brace" | "value" | "continuing";

/** Top-level statement starts, and the members of top-level `{ … }` bodies. */
export interface TypeScriptChunkStarts extends ChunkStarts {
  /**
   * Line starts (with rows) of the members of top-level braces: lines whose first token, at
   * brace depth 1, begins a new member, property, statement or argument there.
   */
  readonly members: readonly number[];
  readonly memberRows: readonly number[];
  /** Line starts of the lines holding a `}` that closes a top-level brace. */
  readonly closers: readonly number[];
  /** Offsets of the `{` that open top-level braces. */
  readonly openers: readonly number[];
  readonly closerRows: readonly number[];
  /** The last line's 0-based row. */
  readonly lastRow: number;
}

/**
 * Where template text starting at `at` ends: after its closing backtick, or after a `${` that
 * opens an expression (the character before the result is then `{`); -1 at the end of the text.
 */
function templateTextEnd(text: string, at: number): number {
  for (let index = at; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === Char.Backslash) index++;
    else if (code === Char.Backtick) return index + 1;
    else if (code === Char.Dollar && text.charCodeAt(index + 1) === Char.OpenBrace) return index + 2;
  }
  return -1;
}

/** Where a regular expression literal at `at` ends, or -1 if it cannot be one (on one line). */
function regexEnd(text: string, at: number): number {
  let inClass = false;
  for (let index = at + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === Char.Backslash) index++;
    else if (code === Char.LineFeed || code === Char.CarriageReturn) return -1;
    else if (code === Char.OpenBracket) inClass = true;
    else if (code === Char.CloseBracket) inClass = false;
    else if (code === Char.Slash && !inClass) return index + 1;
  }
  return -1;
}

function isWordPart(code: number): boolean {
  return isIdentifierPart(code) || code === Char.Dollar || code === Char.Hash;
}

/** The word ending just before `end` (blanks skipped), with where it starts; "" if none. */
function wordBefore(text: string, end: number): { word: string; start: number } {
  let at = end;
  while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
  let start = at;
  while (start > 0 && isWordPart(text.charCodeAt(start - 1))) start--;
  return { word: text.slice(start, at), start };
}

/**
 * Whether the `(` at `index` opens a statement header (`if (`, `for (`, `for await (`,
 * `while (`, `catch (`) rather than a call of a property named so (`x.if(`).
 */
function opensHeader(text: string, index: number): boolean {
  let { word, start } = wordBefore(text, index);
  if (word === "await") ({ word, start } = wordBefore(text, start));
  if (!headerWords.has(word)) return false;
  // Only a `.` on the same line: the line before may be a comment ending a sentence
  // (`// … done.` then `if (`), which this backward look cannot tell from code.
  let before = start;
  while (before > 0 && isBlank(text.charCodeAt(before - 1)) && text.charCodeAt(before - 1) !== Char.LineFeed)
    before--;
  return text.charCodeAt(before - 1) !== Char.Dot;
}

/**
 * Where the top-level statements of TypeScript source start (not TSX: JSX text is not lexable
 * without parsing). A boundary is a line at column 0, outside brackets, strings, template
 * literals (their `${…}` parts nest), regular expressions and comments, that starts with a
 * declaration word or a decorator, after a `;`, a `}` or a value (where a line break ends the
 * statement). Undefined when the source does not lex cleanly: the file is then parsed whole.
 */
export function typescriptChunkStarts(text: string): TypeScriptChunkStarts | undefined {
  const indices = [0];
  const rows = [0];
  const members: number[] = [];
  const memberRows: number[] = [];
  const closers: number[] = [];
  const closerRows: number[] = [];
  const openers: number[] = [];
  /** Where the current line starts, and whether a token has been seen on it. */
  let lineBegin = 0;
  let fresh = true;
  /** The bracket that opened depth 1. */
  let outerOpener = 0;
  const length = text.length;
  let index = 0;
  let row = 0;
  let depth = 0;
  /** Brace depth at which each open template `${` started. */
  const templates: number[] = [];
  let previous: Previous = "start";
  /** The last boundary line was a decorator: the declaration it decorates does not start anew. */
  let decorating = false;
  /** The same for members: the last member began with a decorator, not yet ended by `;` or `}`. */
  let decoratingMember = false;
  /** Depths (after the `(`) of the open statement headers (`if (…)`): a `)` there goes on. */
  const headers: number[] = [];

  while (index < length) {
    const code = text.charCodeAt(index);
    if (fresh && !isBlank(code)) {
      fresh = false;
      const comment =
        code === Char.Slash &&
        (text.charCodeAt(index + 1) === Char.Slash || text.charCodeAt(index + 1) === Char.Star);
      if (index === lineBegin && index > 0 && depth === 0 && templates.length === 0) {
        const settled = previous !== "continuing" && previous !== "comma" && previous !== "open-brace";
        if (settled && (code === Char.At || declarationWords.some((word) => wordAt(text, index, word)))) {
          if (!decorating) {
            indices.push(index);
            rows.push(row);
          }
          decorating = code === Char.At;
        }
      } else if (depth === 1 && templates.length === 0 && outerOpener === Char.OpenBrace && !comment) {
        if (startsMember(text, index, code, previous)) {
          const decorated = decoratingMember && previous !== "semicolon" && previous !== "close-brace";
          if (!decorated) {
            members.push(lineBegin);
            memberRows.push(row);
          }
          decoratingMember = code === Char.At;
        }
      }
    }
    if (code === Char.LineFeed) {
      row++;
      index++;
      lineBegin = index;
      fresh = true;
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
    } else if (code === Char.Slash) {
      const end: number = previous === "value" ? -1 : regexEnd(text, index);
      index = end < 0 ? index + 1 : end;
      previous = end < 0 ? "continuing" : "value";
    } else if (code === Char.DoubleQuote || code === Char.SingleQuote) {
      const end = quotedEnd(text, index);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      index = end;
      previous = "value";
    } else if (code === Char.Backtick) {
      const end = templateTextEnd(text, index + 1);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      if (text.charCodeAt(end - 1) === Char.OpenBrace) templates.push(depth);
      index = end;
      previous = "value";
    } else if (code === Char.OpenParen || code === Char.OpenBracket || code === Char.OpenBrace) {
      if (depth++ === 0) {
        outerOpener = code;
        if (code === Char.OpenBrace) openers.push(index);
      }
      if (code === Char.OpenParen && opensHeader(text, index)) headers.push(depth);
      index++;
      previous = code === Char.OpenBrace ? "open-brace" : "continuing";
    } else if (code === Char.CloseBrace && templates.at(-1) === depth) {
      templates.pop();
      const end = templateTextEnd(text, index + 1);
      if (end < 0) return undefined;
      row += lineFeeds(text, index, end);
      if (text.charCodeAt(end - 1) === Char.OpenBrace) templates.push(depth);
      index = end;
      previous = "value";
    } else if (code === Char.CloseParen || code === Char.CloseBracket || code === Char.CloseBrace) {
      const header = code === Char.CloseParen && headers.at(-1) === depth;
      if (header) headers.pop();
      if (--depth < 0) return undefined;
      if (depth === 0) decoratingMember = false;
      if (depth === 0 && code === Char.CloseBrace && outerOpener === Char.OpenBrace) {
        closers.push(lineBegin);
        closerRows.push(row);
      }
      index++;
      // After `if (…)` the statement's body follows, on this line or the next.
      previous = header ? "continuing" : code === Char.CloseBrace ? "close-brace" : "value";
    } else if (code === Char.Semicolon) {
      index++;
      previous = "semicolon";
    } else if (code === 44 /* , */) {
      index++;
      previous = "comma";
    } else if (isWordPart(code)) {
      const from = index;
      while (index < length && isWordPart(text.charCodeAt(index))) index++;
      previous = continuingWords.has(text.slice(from, index)) ? "continuing" : "value";
    } else if ((code === Char.Plus || code === Char.Minus) && text.charCodeAt(index + 1) === code) {
      index += 2;
      previous = "value";
    } else {
      index++;
      previous = "continuing";
    }
  }
  if (depth !== 0 || templates.length > 0) return undefined;
  return { indices, rows, members, memberRows, closers, closerRows, openers, lastRow: row };
}

/**
 * Whether the first token of a line at depth 1, `code` at `index`, begins a new member: after a
 * `;`, `,`, `{` or `}` any member-like start but a word that goes on with the statement
 * (`else`, `catch`, …); after a value (a line break separating members) only a name, a string,
 * `#` or `@` that is not an operator word going on with the value.
 */
function startsMember(text: string, index: number, code: number, previous: Previous): boolean {
  const hard =
    previous === "semicolon" ||
    previous === "comma" ||
    previous === "open-brace" ||
    previous === "close-brace";
  if (!hard && previous !== "value") return false;
  if (isWordPart(code) && !(code >= Char.Digit0 && code <= Char.Digit9)) {
    let end = index;
    while (isWordPart(text.charCodeAt(end))) end++;
    const word = text.slice(index, end);
    return !operatorWords.has(word) && !continuationWords.has(word);
  }
  if (code === Char.At || code === Char.DoubleQuote || code === Char.SingleQuote) return true;
  return (
    hard &&
    (code === Char.OpenBracket ||
      code === Char.OpenParen ||
      code === 60 /* < */ ||
      code === Char.Star ||
      code === Char.Minus ||
      code === Char.Plus ||
      code === Char.Dot)
  );
}
