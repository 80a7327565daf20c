/**
 * The per-language rules of the code/comment scan (see `code-only.ts`): which marks open a
 * comment or a literal, and how each literal reads.
 */

/** Half-open UTF-16 range of a line's text that is comment or string. */
export type Range = [number, number];

/** How code is set inside a literal: `${…}` (TypeScript, Dart), Dart's `$name`, Python's `{…}`. */
export type Interpolation = "dollar-brace" | "dart" | "python" | undefined;

/** A language as the scan reads it. */
export interface Dialect {
  /** The server table's language ("typescript", "python", "go", "rust", "c", "dart", …). */
  readonly language: string;
  /** `#` starts a comment, and `//`, `/*` do not. */
  readonly hashComments: boolean;
  /** The quote characters that may open a literal. */
  readonly quotes: string;
  /** A `/` in code may open a regular expression literal (TypeScript/JavaScript). */
  readonly regex: boolean;
  /** Block comments nest: `/* a /* b *\/ c *\/` is one comment (Rust, Dart). */
  readonly nestedComments: boolean;
  /** A `\` ending a line inside a quoted string continues it on the next line (TypeScript, Python, C). */
  readonly continuesStrings: boolean;
  /** A `\` ending a line splices the next onto it everywhere, so a `//` comment goes on too (C). */
  readonly splicesLines: boolean;
}

/** The {@link Dialect} of a server table language; another gets `'…'`, `"…"` and C comments. */
export function dialectOf(language: string): Dialect {
  const base: Dialect = {
    language,
    hashComments: false,
    quotes: "'\"",
    regex: false,
    nestedComments: false,
    continuesStrings: false,
    splicesLines: false,
  };
  switch (language) {
    case "typescript":
      return { ...base, quotes: "'\"`", regex: true, continuesStrings: true };
    case "python":
      return { ...base, hashComments: true, continuesStrings: true };
    case "go":
      return { ...base, quotes: "'\"`" };
    case "rust":
    case "dart":
      return { ...base, nestedComments: true };
    case "c":
    case "cpp":
      return { ...base, language: "c", continuesStrings: true, splicesLines: true };
    default:
      return base;
  }
}

/** A literal's opening: where its body starts, what closes it, and how its body reads. */
export interface Opening {
  readonly body: number;
  readonly close: string;
  readonly escapes: boolean;
  readonly interpolation: Interpolation;
  /** It may run over lines (a template literal, a triple-quoted string, a raw string, …). */
  readonly overLines: boolean;
}

/** What the quote at `at` opens: a literal, none (a Rust lifetime, a C++ digit separator), or "unsure". */
export type OpeningAt = Opening | undefined | "unsure";

const identifierChar = /[\p{L}\p{N}_$]/u;

/**
 * The literal the quote at `at` opens, undefined when it opens none, or "unsure" when this scan
 * cannot tell (a C `R"` with no raw-string delimiter after it).
 */
export function openingAt(text: string, at: number, dialect: Dialect): OpeningAt {
  const quote = text[at]!;
  const single: Opening = {
    body: at + 1,
    close: quote,
    escapes: true,
    interpolation: undefined,
    overLines: false,
  };
  switch (dialect.language) {
    case "typescript":
      return quote === "`" ? { ...single, interpolation: "dollar-brace", overLines: true } : single;
    case "go":
      return quote === "`" ? { ...single, escapes: false, overLines: true } : single;
    case "rust": {
      const raw = rustRawOpening(text, at);
      if (raw) return raw;
      if (quote === "'") return charLiteralAt(text, at) ? single : undefined;
      // A Rust string may hold line breaks.
      return { ...single, overLines: true };
    }
    case "c":
      if (quote === '"' && cRawPrefixBefore(text, at)) return cRawOpening(text, at);
      return quote === "'" && inNumber(text, at) ? undefined : single;
    case "python":
    case "dart": {
      const prefix = prefixBefore(text, at, dialect.language === "python" ? /[rRbBfFuU]/ : /[rR]/);
      const triple = text.startsWith(quote.repeat(3), at);
      const raw = /[rR]/.test(prefix);
      return {
        body: at + (triple ? 3 : 1),
        close: triple ? quote.repeat(3) : quote,
        // A backslash before the quote keeps a Python raw string open too.
        escapes: dialect.language === "python" || !raw,
        interpolation:
          dialect.language === "python"
            ? /[fF]/.test(prefix)
              ? "python"
              : undefined
            : raw
              ? undefined
              : "dart",
        overLines: triple,
      };
    }
    default:
      return single;
  }
}

/** The string prefix letters (up to two) right before `at`, or "" when they are part of a name. */
function prefixBefore(text: string, at: number, letter: RegExp): string {
  let from = at;
  while (from > 0 && at - from < 2 && letter.test(text[from - 1]!)) from -= 1;
  if (from > 0 && identifierChar.test(text[from - 1]!)) return "";
  return text.slice(from, at);
}

/** Whether a Rust char literal starts at `at` ('x', '\n', '\x7f', '\u{1F600}'), not a lifetime. */
function charLiteralAt(text: string, at: number): boolean {
  const rest = text.slice(at, at + 12);
  if (/^'\\(?:[nrt\\0'"]|x[0-7][0-9a-fA-F]|u\{[0-9a-fA-F_]{1,6}\})'/.test(rest)) return true;
  return /^'[^'\\\r\n]'/u.test(rest);
}

/**
 * The Rust raw string whose `"` is at `at` (`r"…"`, `r#"…"#`, `br"…"`, `cr"…"`): no escapes, closed
 * by `"` and as many `#` as opened it, over lines if need be; undefined when the quote opens none.
 */
function rustRawOpening(text: string, at: number): Opening | undefined {
  if (text[at] !== '"') return undefined;
  let from = at;
  while (from > 0 && text[from - 1] === "#") from -= 1;
  if (text[from - 1] !== "r") return undefined;
  let start = from - 1;
  if (start > 0 && (text[start - 1] === "b" || text[start - 1] === "c")) start -= 1;
  if (start > 0 && identifierChar.test(text[start - 1]!)) return undefined;
  const close = `"${"#".repeat(at - from)}`;
  return { body: at + 1, close, escapes: false, interpolation: undefined, overLines: true };
}

/** Whether the `"` at `at` follows a C++ raw string's `R` (`R"`, `u8R"`, `LR"` …), not a name's. */
function cRawPrefixBefore(text: string, at: number): boolean {
  if (text[at - 1] !== "R") return false;
  let start = at - 1;
  if (start >= 2 && text.slice(start - 2, start) === "u8") start -= 2;
  else if (/[uUL]/.test(text[start - 1] ?? "")) start -= 1;
  return start === 0 || !identifierChar.test(text[start - 1]!);
}

/**
 * The C++ raw string `R"delim( … )delim"` whose `"` is at `at`: no escapes, over lines if need
 * be. "unsure" when no valid delimiter follows (up to 16 characters, then `(`).
 */
function cRawOpening(text: string, at: number): Opening | "unsure" {
  const delimiter = /^([^\s()\\]{0,16})\(/.exec(text.slice(at + 1, at + 19))?.[1];
  if (delimiter === undefined) return "unsure";
  const body = at + 1 + delimiter.length + 1;
  return { body, close: `)${delimiter}"`, escapes: false, interpolation: undefined, overLines: true };
}

/** Whether the `'` at `at` lies within a number (C++14's 1'000'000), a digit separator. */
function inNumber(text: string, at: number): boolean {
  if (!/[0-9a-zA-Z]/.test(text[at + 1] ?? "")) return false;
  let from = at;
  while (from > 0 && /[0-9a-zA-Z_'.]/.test(text[from - 1]!)) from -= 1;
  return from < at && /[0-9]/.test(text[from]!);
}

/** Whether `text` ends with a `\` that joins the next line to it (trailing blanks allowed, as gcc does). */
export function endsInBackslash(text: string): boolean {
  return /\\[ \t]*$/.test(text);
}

/**
 * Whether code `text` holds a mark that may open something running over lines in the dialect: a
 * block comment, a template literal or raw string, a triple-quoted string, a Rust string, a line
 * continued by a `\`. Quotes that close on their line (TypeScript's, Go's, C's) open nothing.
 */
export function opensOverLines(text: string, dialect: Dialect): boolean {
  if ((dialect.continuesStrings || dialect.splicesLines) && endsInBackslash(text)) return true;
  if (!dialect.hashComments && text.includes("/*")) return true;
  switch (dialect.language) {
    case "typescript":
    case "go":
      return text.includes("`");
    case "rust":
      return text.includes('"');
    case "python":
    case "dart":
      return text.includes('"""') || text.includes("'''");
    case "c":
      return text.includes('R"');
    default:
      return false;
  }
}

/**
 * Whether a line read alone holds an odd number of backticks (TypeScript, Go): it may be a
 * template literal's or raw string's middle or end, its quotes the other way round.
 */
export function oddBackticks(text: string, dialect: Dialect): boolean {
  if (dialect.language !== "typescript" && dialect.language !== "go") return false;
  return (text.match(/`/g)?.length ?? 0) % 2 === 1;
}
