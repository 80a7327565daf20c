import { endsInBackslash, openingAt, type Dialect, type Opening, type Range } from "./code-dialect.js";
import {
  afterLiteral,
  afterPunctuation,
  afterWord,
  regexEnd,
  slashContext,
  slashMeaning,
  type SlashContext,
} from "./slash-context.js";

/**
 * The scan of code behind `code-only.ts`: one line's code from a given state, finding the
 * comments and literals in it (`Range`s to blank); `code-lines.ts` carries what runs over lines.
 * Where the line holds what this scan cannot read for sure, it throws {@link ScanDoubt}, and the
 * caller takes the line as code.
 */

/**
 * What a line leaves open for the next: a block comment (at a nesting depth), a `//` comment
 * continued by `\`, a literal, or the code of a literal's interpolation (`${` of a template
 * literal whose expression goes on: `depth` braces open in it, `slash` what a `/` there is).
 */
export type Carry =
  | { readonly kind: "comment"; readonly depth: number }
  | { readonly kind: "line-comment" }
  | { readonly kind: "literal"; readonly opening: Opening }
  | {
      readonly kind: "interpolation";
      readonly literal: Opening;
      readonly depth: number;
      readonly slash: SlashContext;
    };

/** The state of a scan, carried from line to line when a file is read in order. */
export interface LineState {
  /**
   * The lines are read in order: what is left open at a line's end (a block comment, a literal
   * that may run over lines) is blanked to the line's end and carried to the next.
   */
  readonly inOrder: boolean;
  carry?: Carry | undefined;
  /** Set when a line could not be read for sure and may have left something open. */
  lost?: boolean;
  /** What a `/` would be (TypeScript/JavaScript). */
  readonly slash: SlashContext;
  /** An interpolation's code (nested): the braces open in it, at the start and at the line's end. */
  braces?: number;
  /** An interpolation's code: the line ended in a literal or block comment opened in it. */
  open?: boolean;
  /** Read in order: the literal opened at `at` that the line ended in. */
  unclosed?: { readonly at: number; readonly opening: Opening; readonly end: Unclosed } | undefined;
}

/** A place in a line that this scan cannot read for sure (a `/` that may divide or open a regular expression). */
export class ScanDoubt extends Error {
  constructor(
    /** Its UTF-16 index in the line. */
    readonly at: number,
    /** It is inside a literal's interpolation. */
    readonly nested: boolean,
  ) {
    super(`not read for sure at ${at}`);
  }
}

/** A literal the line ended in: in its text (`from` on), or in an interpolation's code. */
export interface Unclosed {
  readonly open: "text" | "interpolation";
  /** Its text before `from` that is no interpolation's code. */
  readonly found: readonly Range[];
  readonly from: number;
  /** The line ends in a `\` that continues the literal on the next line. */
  readonly continued: boolean;
  /** Open "interpolation": the state of its code at the line's end. */
  readonly inner?: LineState;
}

const word = /[\p{ID_Continue}$\u200c\u200d]+/uy;

/** Whether an ASCII code unit may be part of a name or number: a letter, a digit, `_`, `$`. */
function asciiWordChar(unit: number): boolean {
  return (
    (unit >= 48 && unit <= 57) ||
    (unit >= 65 && unit <= 90) ||
    (unit >= 97 && unit <= 122) ||
    unit === 95 ||
    unit === 36
  );
}
const blank = /\s/;
const letter = /\p{L}/u;

/**
 * Where the block comment whose body runs from `from` at nesting `depth` ends (the index after
 * its `*\/`), or the depth still open at the line's end.
 */
export function blockCommentEnd(
  text: string,
  from: number,
  depth: number,
  nests: boolean,
): number | { depth: number } {
  for (let j = from; j < text.length - 1; j++) {
    if (text[j] === "*" && text[j + 1] === "/") {
      depth -= 1;
      j += 1;
      if (depth === 0) return j + 1;
    } else if (nests && text[j] === "/" && text[j + 1] === "*") {
      depth += 1;
      j += 1;
    }
  }
  return { depth };
}

/**
 * Scans code from `start`, adding the comments and literals it finds to `ranges`. `nested` (an
 * interpolation): stops at the `}` that closes it, returning its index; otherwise, and when the
 * text ends first, returns `text.length` (an interpolation's open braces then in `state.braces`,
 * and `state.open` set when the line ended in something opened in it). Read in order
 * (`state.inOrder`, not nested), a block comment not closed on the line is blanked to its end and
 * left in `state.carry`, and a literal not closed on it is left in `state.unclosed`; read alone, a
 * literal not closed on the line is taken as code from its quote (perhaps it is no literal: JSX
 * text's `students' work`). Throws {@link ScanDoubt} where the line cannot be read for sure.
 */
export function scanCode(
  text: string,
  start: number,
  dialect: Dialect,
  ranges: Range[],
  state: LineState,
  nested: boolean,
): number {
  const slash = state.slash;
  let depth = nested ? (state.braces ?? 0) : 0;
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (dialect.hashComments ? char === "#" : char === "/" && next === "/") {
      ranges.push([i, text.length]);
      if (nested) state.braces = depth;
      else if (dialect.splicesLines && state.inOrder && endsInBackslash(text))
        state.carry = { kind: "line-comment" };
      return text.length;
    }
    if (!dialect.hashComments && char === "/" && next === "*") {
      const end = blockCommentEnd(text, i + 2, 1, dialect.nestedComments);
      if (typeof end === "number") {
        ranges.push([i, end]);
        i = end;
        continue;
      }
      ranges.push([i, text.length]);
      if (nested) state.open = true;
      else if (state.inOrder) state.carry = { kind: "comment", depth: end.depth };
      return text.length;
    }
    if (nested && char === "{") depth += 1;
    if (nested && char === "}") {
      if (depth === 0) return i;
      depth -= 1;
    }
    if (dialect.regex && char === "/") {
      const meaning = slashMeaning(slash, text, i);
      if (meaning === "unknown") throw new ScanDoubt(i, nested);
      if (meaning === "code") {
        slash.before = "regex";
        slash.word = undefined;
        i += 1;
        continue;
      }
      const end = regexEnd(text, i);
      if (end === undefined) throw new ScanDoubt(i, nested);
      ranges.push([i, end]);
      afterLiteral(slash);
      i = end;
      continue;
    }
    if (dialect.quotes.includes(char)) {
      // JSX text (`<p>Don't {x}</p>`): an apostrophe between letters opens no string.
      if (dialect.regex && char === "'" && letter.test(text[i - 1] ?? "") && letter.test(next ?? ""))
        throw new ScanDoubt(i, nested);
      const opening = openingAt(text, i, dialect);
      if (opening === "unsure") throw new ScanDoubt(i, nested);
      if (opening) {
        const end = scanLiteral(text, i, opening, dialect, ranges, state.inOrder);
        if (typeof end === "number") {
          afterLiteral(slash);
          i = end;
          continue;
        }
        // Not closed on the line: perhaps it is, on a later one; perhaps it is no literal.
        if (nested) state.open = true;
        else if (state.inOrder) state.unclosed = { at: i, opening, end };
        return text.length;
      }
    }
    const unit = text.charCodeAt(i);
    if (unit === 32 || unit === 9) {
      i += 1;
      continue;
    }
    word.lastIndex = i;
    const name = unit < 128 && !asciiWordChar(unit) ? undefined : word.exec(text)?.[0];
    if (name !== undefined) {
      afterWord(slash, name);
      i += name.length;
    } else if (blank.test(char)) i += 1;
    else i += afterPunctuation(slash, text, i);
  }
  if (nested) state.braces = depth;
  return text.length;
}

/**
 * Scans the literal opened at `at`, adding its text (not its interpolations' code) to `ranges`;
 * returns the index after it, or where the line ends in it when it does before the literal
 * (nothing added).
 */
export function scanLiteral(
  text: string,
  at: number,
  opening: Opening,
  dialect: Dialect,
  ranges: Range[],
  inOrder: boolean,
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
      if (j + 1 >= text.length && dialect.continuesStrings)
        return { open: "text", found, from, continued: true };
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
      // Its own code, read with what a `/` is from its start.
      const inner: LineState = { inOrder, slash: slashContext("regex") };
      const end = scanCode(text, body, dialect, found, inner, true);
      if (end >= text.length) return { open: "interpolation", found, from, continued: false, inner };
      from = end;
      j = end + 1;
      continue;
    }
    j += 1;
  }
  return { open: "text", found, from, continued: false };
}
