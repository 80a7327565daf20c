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
  if (uncertain(text, language, false)) return text;
  const ranges: Range[] = [];
  scanCode(text, 0, dialectOf(language), ranges, false);
  return blanked(text, ranges);
}

function blanked(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  // UTF-16 units, as LSP columns count.
  const out = text.split("");
  for (const [from, to] of ranges) for (let i = from; i < to; i++) out[i] = " ";
  return out.join("");
}

/**
 * The lines of a whole file as {@link codeOnly} makes them, but read in order, so that what
 * runs over lines is known: a block comment `/* … *\/`, a TypeScript template literal, a Go raw
 * string, a Python or Dart triple-quoted string, a Rust string (a docstring's middle line is
 * no code). Returns the code of line `index` (0-based); lines are scanned once, up to the
 * furthest asked. Where a line cannot be read for sure (see {@link uncertain}) and could open
 * something running over lines (a regular expression holding a backtick), the lines after it
 * are read each alone, as {@link codeOnly} does: a use is never taken for a comment.
 */
export function codeOnlyLines(lines: readonly string[], language: string): (index: number) => string {
  const dialect = dialectOf(language);
  const done: string[] = [];
  let carry: Carry | undefined;
  let lost = false;
  return (index) => {
    while (done.length <= index && done.length < lines.length) {
      const text = lines[done.length]!;
      if (lost) {
        done.push(codeOnly(text, language));
        continue;
      }
      const ranges: Range[] = [];
      const state: LineState = { carry };
      scanLine(text, dialect, state, ranges);
      carry = state.carry;
      lost = state.lost === true;
      done.push(blanked(text, ranges));
    }
    return done[index] ?? lines[index] ?? "";
  };
}

/** The {@link codeOnlyLines} of each lines array (a file text's, cached with it), per language. */
const sharedLines = new WeakMap<readonly string[], Map<string, (index: number) => string>>();

/**
 * {@link codeOnlyLines} kept with `lines` (a file text's cached lines array): a later request on
 * the same unchanged text reuses the lines already scanned instead of scanning from the file's
 * start again. Dropped with the array.
 */
export function sharedCodeOnlyLines(lines: readonly string[], language: string): (index: number) => string {
  let perLanguage = sharedLines.get(lines);
  if (perLanguage === undefined) sharedLines.set(lines, (perLanguage = new Map()));
  let code = perLanguage.get(language);
  if (code === undefined) perLanguage.set(language, (code = codeOnlyLines(lines, language)));
  return code;
}

/** What a line leaves open for the next: a block comment, or a literal running over lines. */
type Carry = { readonly kind: "comment" } | { readonly kind: "literal"; readonly opening: Opening };

interface LineState {
  carry?: Carry | undefined;
  /** Set when the line could not be read for sure and may have left something open. */
  lost?: boolean;
}

/** One line of {@link codeOnlyLines}: closes what the line before left open, then scans code. */
function scanLine(text: string, dialect: Dialect, state: LineState, ranges: Range[]): void {
  let start = 0;
  const carried = state.carry;
  state.carry = undefined;
  if (carried?.kind === "comment") {
    const end = text.indexOf("*/");
    if (end === -1) {
      ranges.push([0, text.length]);
      state.carry = carried;
      return;
    }
    ranges.push([0, end + 2]);
    start = end + 2;
  } else if (carried?.kind === "literal") {
    const end = scanLiteral(text, 0, carried.opening, dialect, ranges);
    if (typeof end !== "number") {
      if (end.open === "interpolation") state.lost = true;
      else {
        ranges.push(...end.found, [end.from, text.length]);
        state.carry = carried;
      }
      return;
    }
    start = end;
  }
  const rest = text.slice(start);
  if (uncertain(rest, dialect.language, true)) {
    // The rest taken as code; what it may open is not known, so neither is what follows.
    if (opensOverLines(rest, dialect)) state.lost = true;
    return;
  }
  scanCode(text, start, dialect, ranges, false, state);
}

/** Whether `text` holds a mark that may open something running over lines in the dialect. */
function opensOverLines(text: string, dialect: Dialect): boolean {
  if (!dialect.hashComments && text.includes("/*")) return true;
  return dialect.quotes.split("").some((quote) => text.includes(quote));
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
  /** It may run over lines (a template literal, a triple-quoted string, …). */
  readonly overLines: boolean;
}

/** A literal the line ended in: in its text (`from` on), or in an interpolation's code. */
interface Unclosed {
  readonly open: "text" | "interpolation";
  /** Its text before `from` that is no interpolation's code. */
  readonly found: readonly Range[];
  readonly from: number;
}

const identifierChar = /[\p{L}\p{N}_$]/u;

/**
 * Scans code from `start`, adding the comments and literals it finds to `ranges`. `nested` (an
 * interpolation): stops at the `}` that closes it, returning its index; otherwise, and when the
 * text ends first, returns `text.length`. With `state` (a line of a file read in order), a block
 * comment or a literal that runs over lines and is not closed on the line is blanked to its end
 * and left in `state.carry`.
 */
function scanCode(
  text: string,
  start: number,
  dialect: Dialect,
  ranges: Range[],
  nested: boolean,
  state?: LineState,
): number {
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
      if (end === -1 && state) state.carry = { kind: "comment" };
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
    if (typeof end === "number") {
      i = end;
      continue;
    }
    if (state && opening.overLines) {
      if (end.open === "interpolation") state.lost = true;
      else {
        ranges.push(...end.found, [end.from, text.length]);
        state.carry = { kind: "literal", opening: { ...opening, body: 0 } };
      }
    }
    // Not closed on the line: perhaps it is, on a later one; perhaps it is no literal.
    return text.length;
  }
  return text.length;
}

/** The literal the quote at `at` opens, or undefined when it opens none. */
function openingAt(text: string, at: number, dialect: Dialect): Opening | undefined {
  const quote = text[at]!;
  const single = { body: at + 1, close: quote, escapes: true, interpolation: undefined, overLines: false };
  switch (dialect.language) {
    case "typescript":
      return quote === "`" ? { ...single, interpolation: "dollar-brace", overLines: true } : single;
    case "go":
      return quote === "`" ? { ...single, escapes: false, overLines: true } : single;
    case "rust":
      if (quote === "'") return charLiteralAt(text, at) ? single : undefined;
      // A Rust string may hold line breaks.
      return { ...single, overLines: true };
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

/** Whether the `'` at `at` lies within a number (C++14's 1'000'000), a digit separator. */
function inNumber(text: string, at: number): boolean {
  if (!/[0-9a-zA-Z]/.test(text[at + 1] ?? "")) return false;
  let from = at;
  while (from > 0 && /[0-9a-zA-Z_'.]/.test(text[from - 1]!)) from -= 1;
  return from < at && /[0-9]/.test(text[from]!);
}

/**
 * Scans the literal opened at `at`, adding its text (not its interpolations' code) to `ranges`;
 * returns the index after it, or where the line ends in it when it does before the literal
 * (nothing added).
 */
function scanLiteral(
  text: string,
  at: number,
  opening: Opening,
  dialect: Dialect,
  ranges: Range[],
): number | Unclosed {
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
      if (end >= text.length) return { open: "interpolation", found, from };
      from = end;
      j = end + 1;
      continue;
    }
    j += 1;
  }
  return { open: "text", found, from };
}

/**
 * Whether a line holds what a scan of quotes and comment marks misreads, so that all of it is
 * taken as code (the safe side: a use is never taken for a comment): in TypeScript/JavaScript a
 * `/` that starts neither `//` nor `/*` before any `//` (a regular expression may hold quotes
 * and comment marks: `/'/`, `/\/\//`, `/[/*]/`), an apostrophe between letters (JSX text:
 * `Don't`), or, read alone (not `inOrder`), an odd number of backticks (a template literal
 * running over lines); Go's odd backticks too (raw strings over lines); Rust raw strings
 * (`r"…"`, `r#"…"#`); C++ raw strings (`R"(…)"`).
 */
function uncertain(text: string, language: string, inOrder: boolean): boolean {
  const backticks = !inOrder && (text.match(/`/g)?.length ?? 0) % 2 === 1;
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
