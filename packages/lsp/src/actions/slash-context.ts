/**
 * Whether a `/` in TypeScript/JavaScript code opens a regular expression literal or is the
 * division operator, by the code before it, as the language's grammar decides: after an
 * operand (a name, a number, a literal, `)` of a call, `]`) it divides; after an operator,
 * `(`, `,`, `=` or a keyword such as `return` it opens a regular expression. Where the code
 * before does not say (after `}`, `++`, a `)` whose `(` is not known, at the start of a line
 * read alone), the meaning is "unknown".
 */
export interface SlashContext {
  /** What a `/` now would be. */
  before: "regex" | "division" | "unknown";
  /** The open parentheses, each true when it follows `if`, `while`, `for` or `with`. */
  readonly parens: boolean[];
  /** The keyword or name just read, when nothing came after it but blanks. */
  word: string | undefined;
  /** A `.` came last: the next name is a member (`x.return`), no keyword. */
  member: boolean;
}

/** Words after which an expression starts, so that a `/` opens a regular expression. */
const beforeExpression = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/** Statements whose `( … )` is followed by a statement, which a regular expression may begin. */
const controlWords = new Set(["if", "while", "for", "with"]);

/** Open parentheses kept at most: past that, the oldest are forgotten (a `)` then says "unknown"). */
const maxParens = 64;

/** A context at `before` with no parenthesis open: "regex" at a file's start, "unknown" on a line read alone. */
export function slashContext(before: SlashContext["before"]): SlashContext {
  return { before, parens: [], word: undefined, member: false };
}

/** Forgets what came before (a line that could not be read for sure). */
export function forgetSlashContext(context: SlashContext): void {
  context.before = "unknown";
  context.parens.length = 0;
  context.word = undefined;
  context.member = false;
}

/** Notes a name, keyword or number read in code. */
export function afterWord(context: SlashContext, word: string): void {
  const keyword = context.member ? undefined : word;
  context.before = keyword !== undefined && beforeExpression.has(keyword) ? "regex" : "division";
  context.word = keyword;
  context.member = false;
}

/** Notes a literal (string, template, regular expression) read in code: an operand. */
export function afterLiteral(context: SlashContext): void {
  context.before = "division";
  context.word = undefined;
  context.member = false;
}

/**
 * Notes the punctuation at `at` of code `text` (not a `/`, a quote, a name or a blank); returns
 * how many characters it takes (2 for `++` and `--`, else 1).
 */
export function afterPunctuation(context: SlashContext, text: string, at: number): number {
  const char = text[at]!;
  const word = context.word;
  context.word = undefined;
  context.member = char === "." && text[at - 1] !== ".";
  switch (char) {
    case "(":
      if (context.parens.length >= maxParens) context.parens.shift();
      context.parens.push(word !== undefined && controlWords.has(word));
      context.before = "regex";
      return 1;
    case ")": {
      const control = context.parens.pop();
      context.before = control === undefined ? "unknown" : control ? "regex" : "division";
      return 1;
    }
    case "]":
      context.before = "division";
      return 1;
    case "}":
      // A block's end (a statement follows) or an object literal's (an operator follows).
      context.before = "unknown";
      return 1;
    case "+":
    case "-":
      if (text[at + 1] === char) {
        // `a++ / b` divides; `++ /re/.lastIndex` would not: postfix or prefix is not known here.
        context.before = "unknown";
        return 2;
      }
      context.before = "regex";
      return 1;
    case "!":
      // TypeScript's non-null assertion `a! / b` leaves an operand; `!/re/.test(s)` does not.
      context.before =
        text[at + 1] !== "=" &&
        !(word !== undefined && beforeExpression.has(word)) &&
        /[\p{L}\p{N}_$)\]]/u.test(text[at - 1] ?? "")
          ? "division"
          : "regex";
      return 1;
    default:
      context.before = "regex";
      return 1;
  }
}

/**
 * What the `/` at `at` of code `text` (neither `//` nor `/*`) is: the start of a regular
 * expression, code (division, or a JSX tag's `</` or `/>`), or "unknown".
 */
export function slashMeaning(context: SlashContext, text: string, at: number): "regex" | "code" | "unknown" {
  // A closing tag `</div>` (a comparison `a </re/` is not written so).
  if (text[at - 1] === "<") return "code";
  // `*/` outside a comment: perhaps a comment's end, on a line read alone.
  if (text[at - 1] === "*") return "unknown";
  const before = context.before;
  // A self-closing tag after an attribute's braces: `<Item key={id} />`.
  if (before === "unknown" && text[at + 1] === ">") return "code";
  return before === "division" ? "code" : before;
}

/**
 * The end (exclusive, flags included) of the regular expression literal opened by the `/` at
 * `at`, or undefined when the line ends first: a literal never runs over lines, so that `/` was
 * no regular expression, or the code is broken.
 */
export function regexEnd(text: string, at: number): number | undefined {
  let inClass = false;
  for (let j = at + 1; j < text.length; j++) {
    const char = text[j];
    if (char === "\\") j += 1;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "/") {
      let end = j + 1;
      while (end < text.length && /[\p{L}\p{N}_$]/u.test(text[end]!)) end += 1;
      return end;
    }
  }
  return undefined;
}
