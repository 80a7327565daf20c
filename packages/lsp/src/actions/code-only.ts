/**
 * One line of source with its comments and string literals blanked (each character a space, so
 * columns stay): what is left is code. By the line's text alone: a comment `//` or `/* … *\/`
 * (`#` in Python) and quoted text on the line, by the language's rules (`language` is the server
 * table's: "typescript", "python", "go", "rust", "c", "dart"; another gets `'…'` and `"…"`):
 * interpolations are code (`${…}` in template literals and Dart strings, Dart's `$name`, `{…}` in
 * Python f-strings but not `{{`); a Rust `'` that starts no valid char literal is a lifetime; a C
 * `'` within a number is a digit separator. What is blanked is certainly not code: a string not
 * closed on the line, and a line inside a comment or string that began on an earlier line, are
 * taken as code, and so is a whole line this scan cannot read for sure (see {@link uncertain}).
 */
export function codeOnly(text: string, language: string): string {
  if (uncertain(text, language)) return text;
  const ranges: Range[] = [];
  scanCode(text, 0, dialectOf(language), ranges, false);
  // UTF-16 units, as LSP columns count.
  const out = text.split("");
  for (const [from, to] of ranges) for (let i = from; i < to; i++) out[i] = " ";
  return out.join("");
}

/** Half-open UTF-16 range of a line's text that is comment or string. */
type Range = [number, number];

type Interpolation = "dollar-brace" | "dart" | "python" | undefined;

interface Dialect {
  readonly language: string;
  /** `#` starts a comment, and `//`, `/*` do not. */
  readonly hashComments: boolean;
  /** The quote characters that may open a literal. */
  readonly quotes: string;
}

function dialectOf(language: string): Dialect {
  switch (language) {
    case "typescript":
      return { language, hashComments: false, quotes: "'\"`" };
    case "python":
      return { language, hashComments: true, quotes: "'\"" };
    case "go":
      return { language, hashComments: false, quotes: "'\"`" };
    default:
      return { language, hashComments: false, quotes: "'\"" };
  }
}

/** A literal's opening: where its body starts, what closes it, and how its body reads. */
interface Opening {
  readonly body: number;
  readonly close: string;
  readonly escapes: boolean;
  readonly interpolation: Interpolation;
}

const identifierChar = /[\p{L}\p{N}_$]/u;

/**
 * Scans code from `start`, adding the comments and literals it finds to `ranges`. `nested` (an
 * interpolation): stops at the `}` that closes it, returning its index; otherwise, and when the
 * text ends first, returns `text.length`.
 */
function scanCode(text: string, start: number, dialect: Dialect, ranges: Range[], nested: boolean): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (dialect.hashComments ? char === "#" : char === "/" && next === "/") {
      ranges.push([i, text.length]);
      return text.length;
    }
    if (!dialect.hashComments && char === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const to = end === -1 ? text.length : end + 2;
      ranges.push([i, to]);
      i = to;
      continue;
    }
    if (nested && char === "{") depth += 1;
    if (nested && char === "}") {
      if (depth === 0) return i;
      depth -= 1;
    }
    const opening = dialect.quotes.includes(char) ? openingAt(text, i, dialect) : undefined;
    if (!opening) {
      i += 1;
      continue;
    }
    const end = scanLiteral(text, i, opening, dialect, ranges);
    // Not closed on the line: perhaps it is, on a later one; perhaps it is no literal.
    if (end === undefined) return text.length;
    i = end;
  }
  return text.length;
}

/** The literal the quote at `at` opens, or undefined when it opens none. */
function openingAt(text: string, at: number, dialect: Dialect): Opening | undefined {
  const quote = text[at]!;
  const single = { body: at + 1, close: quote, escapes: true, interpolation: undefined };
  switch (dialect.language) {
    case "typescript":
      return quote === "`" ? { ...single, interpolation: "dollar-brace" } : single;
    case "go":
      return quote === "`" ? { ...single, escapes: false } : single;
    case "rust":
      return quote === "'" && !charLiteralAt(text, at) ? undefined : single;
    case "c":
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

/** Whether the `'` at `at` lies within a number (C++14's 1'000'000), a digit separator. */
function inNumber(text: string, at: number): boolean {
  if (!/[0-9a-zA-Z]/.test(text[at + 1] ?? "")) return false;
  let from = at;
  while (from > 0 && /[0-9a-zA-Z_'.]/.test(text[from - 1]!)) from -= 1;
  return from < at && /[0-9]/.test(text[from]!);
}

/**
 * Scans the literal opened at `at`, adding its text (not its interpolations' code) to `ranges`;
 * returns the index after it, or undefined when the line ends before it does (nothing added).
 */
function scanLiteral(
  text: string,
  at: number,
  opening: Opening,
  dialect: Dialect,
  ranges: Range[],
): number | undefined {
  const found: Range[] = [];
  let from = at;
  let j = opening.body;
  while (j < text.length) {
    if (text.startsWith(opening.close, j)) {
      found.push([from, j + opening.close.length]);
      ranges.push(...found);
      return j + opening.close.length;
    }
    const char = text[j]!;
    const next = text[j + 1];
    if (char === "\\" && opening.escapes) {
      j += 2;
      continue;
    }
    const interpolation = opening.interpolation;
    if (interpolation === "dart" && char === "$" && next !== undefined && /[\p{L}_]/u.test(next)) {
      found.push([from, j + 1]);
      j += 1;
      while (j < text.length && /[\p{L}\p{N}_]/u.test(text[j]!)) j += 1;
      from = j;
      continue;
    }
    const opens =
      interpolation === "python" ? char === "{" : interpolation !== undefined && char === "$" && next === "{";
    if (interpolation === "python" && char === "{" && next === "{") {
      j += 2;
      continue;
    }
    if (opens) {
      const body = j + (interpolation === "python" ? 1 : 2);
      found.push([from, body]);
      const end = scanCode(text, body, dialect, found, true);
      if (end >= text.length) return undefined;
      from = end;
      j = end + 1;
      continue;
    }
    j += 1;
  }
  return undefined;
}

/**
 * Whether a line holds what a scan of quotes and comment marks misreads, so that all of it is
 * taken as code (the safe side: a use is never taken for a comment): in TypeScript/JavaScript a
 * `/` that starts neither `//` nor `/*` before any `//` (a regular expression may hold quotes
 * and comment marks: `/'/`, `/\/\//`, `/[/*]/`), an apostrophe between letters (JSX text:
 * `Don't`), or an odd number of backticks (a template literal running over lines); Go's odd
 * backticks too (raw strings over lines); Rust raw strings (`r"…"`, `r#"…"#`); C++ raw strings
 * (`R"(…)"`).
 */
function uncertain(text: string, language: string): boolean {
  const backticks = (text.match(/`/g)?.length ?? 0) % 2 === 1;
  switch (language) {
    case "typescript": {
      if (backticks || /\p{L}'\p{L}/u.test(text)) return true;
      const comment = text.indexOf("//");
      const code = comment === -1 ? text : text.slice(0, comment);
      for (let i = code.indexOf("/"); i !== -1; i = code.indexOf("/", i + 1)) {
        if (code[i + 1] !== "*" && code[i - 1] !== "*") return true;
      }
      return false;
    }
    case "go":
      return backticks;
    case "rust":
      return /(?<![\p{L}\p{N}_])b?r#*"/u.test(text);
    case "c":
    case "cpp":
      return /(?<![\p{L}\p{N}_])(?:u8|[uUL])?R"/u.test(text);
    default:
      return false;
  }
}
