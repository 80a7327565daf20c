import {
  endsInBackslash,
  openingAt,
  opensOverLines,
  type Dialect,
  type Opening,
  type Range,
} from "./code-dialect.js";
import {
  afterLiteral,
  afterPunctuation,
  afterWord,
  forgetSlashContext,
  regexEnd,
  slashContext,
  slashMeaning,
  type SlashContext,
} from "./slash-context.js";

/**
 * The scan of code behind `code-only.ts`: one line at a time, from a given state, finding the
 * comments and literals in it (`Range`s to blank). Where the line holds what this scan cannot
 * read for sure, it throws {@link ScanDoubt}, and the caller takes the line as code.
 */

/** What a line leaves open for the next: a block comment, a `//` comment continued by `\`, a literal. */
export type Carry =
  | { readonly kind: "comment"; readonly depth: number }
  | { readonly kind: "line-comment" }
  | { readonly kind: "literal"; readonly opening: Opening };

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
interface Unclosed {
  readonly open: "text" | "interpolation";
  /** Its text before `from` that is no interpolation's code. */
  readonly found: readonly Range[];
  readonly from: number;
  /** The line ends in a `\` that continues the literal on the next line. */
  readonly continued: boolean;
}

const word = /[\p{ID_Continue}$\u200c\u200d]+/uy;
const blank = /\s/;
const letter = /\p{L}/u;

/**
 * One line of a file read in order (`state.inOrder`): closes what the line before left open,
 * then scans code, adding to `ranges`. A line that cannot be read for sure is taken as code from
 * where nothing ran into it; `state.lost` is then set when it may have opened something running
 * over lines, since what follows is not known.
 */
export function scanLine(
  text: string,
  index: number,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): void {
  let start = 0;
  const carried = state.carry;
  state.carry = undefined;
  if (carried?.kind === "line-comment") {
    ranges.push([0, text.length]);
    if (endsInBackslash(text)) state.carry = carried;
    return;
  }
  if (carried?.kind === "comment") {
    const end = blockCommentEnd(text, 0, carried.depth, dialect.nestedComments);
    if (typeof end !== "number") {
      ranges.push([0, text.length]);
      state.carry = { kind: "comment", depth: end.depth };
      return;
    }
    ranges.push([0, end]);
    start = end;
  } else if (carried?.kind === "literal") {
    let end: number | Unclosed;
    try {
      end = scanLiteral(text, 0, carried.opening, dialect, ranges, state.inOrder);
    } catch (error) {
      if (!(error instanceof ScanDoubt)) throw error;
      // In an interpolation's code: where the literal goes on is not known.
      ranges.length = 0;
      state.lost = true;
      return;
    }
    if (typeof end !== "number") {
      if (end.open === "text" && (carried.opening.overLines || end.continued)) {
        ranges.push(...end.found, [end.from, text.length]);
        state.carry = carried;
      } else state.lost = true;
      return;
    }
    start = end;
    afterLiteral(state.slash);
  } else if (index === 0 && dialect.regex && text.startsWith("#!")) {
    // A script's `#!/usr/bin/env node` line.
    ranges.push([0, text.length]);
    return;
  }
  const kept = ranges.length;
  try {
    scanCode(text, start, dialect, ranges, state, false);
  } catch (error) {
    if (!(error instanceof ScanDoubt)) throw error;
    ranges.length = kept;
    state.carry = undefined;
    state.lost = error.nested || opensOverLines(text.slice(error.at), dialect);
    forgetSlashContext(state.slash);
  }
}

/**
 * Where the block comment whose body runs from `from` at nesting `depth` ends (the index after
 * its `*\/`), or the depth still open at the line's end.
 */
function blockCommentEnd(
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
 * text ends first, returns `text.length`. Read in order (`state.inOrder`, not nested), a block
 * comment or a literal that may run over lines and is not closed on the line is blanked to its
 * end and left in `state.carry`. A literal not closed on the line that cannot go on is taken as
 * code from its quote (perhaps it is no literal: JSX text's `students' work`). Throws
 * {@link ScanDoubt} where the line cannot be read for sure.
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
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (dialect.hashComments ? char === "#" : char === "/" && next === "/") {
      ranges.push([i, text.length]);
      if (dialect.splicesLines && state.inOrder && !nested && endsInBackslash(text))
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
      if (state.inOrder && !nested) state.carry = { kind: "comment", depth: end.depth };
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
        if (state.inOrder && !nested) unclosedAtEnd(text, i, opening, end, dialect, state, ranges);
        // Not closed on the line: perhaps it is, on a later one; perhaps it is no literal.
        return text.length;
      }
    }
    word.lastIndex = i;
    const name = word.exec(text)?.[0];
    if (name !== undefined) {
      afterWord(slash, name);
      i += name.length;
    } else if (blank.test(char)) i += 1;
    else i += afterPunctuation(slash, text, i);
  }
  return text.length;
}

/** A literal opened at `at` of a line read in order, which the line ends in (see {@link scanCode}). */
function unclosedAtEnd(
  text: string,
  at: number,
  opening: Opening,
  end: Unclosed,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): void {
  if (end.open === "interpolation") {
    // A multi-line expression inside the literal: where it and the literal end is not followed.
    state.lost = true;
    return;
  }
  if (opening.overLines || end.continued) {
    ranges.push(...end.found, [end.from, text.length]);
    state.carry = { kind: "literal", opening: { ...opening, body: 0 } };
    return;
  }
  // Taken as code from the quote: whatever it holds may open something the next lines are in.
  if (opensOverLines(text.slice(at), dialect)) state.lost = true;
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
      if (end >= text.length) return { open: "interpolation", found, from, continued: false };
      from = end;
      j = end + 1;
      continue;
    }
    j += 1;
  }
  return { open: "text", found, from, continued: false };
}
