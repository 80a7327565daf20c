import { endsInBackslash, opensOverLines, type Dialect, type Opening, type Range } from "./code-dialect.js";
import {
  blockCommentEnd,
  scanCode,
  scanLiteral,
  ScanDoubt,
  type Carry,
  type LineState,
  type Unclosed,
} from "./code-scan.js";
import { afterLiteral, forgetSlashContext } from "./slash-context.js";

/**
 * One line of a file read in order (`state.inOrder`): closes what the line before left open
 * (`state.carry`), then scans code, adding to `ranges`, and leaves in `state.carry` what this
 * line leaves open. A line that cannot be read for sure is taken as code from where nothing ran
 * into it; `state.lost` is then set when it may have opened something running over lines, since
 * what follows is not known.
 */
export function scanLine(
  text: string,
  index: number,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): void {
  const carried = state.carry;
  state.carry = undefined;
  let start: number | undefined;
  try {
    start = closeCarried(text, carried, dialect, state, ranges);
  } catch (error) {
    if (!(error instanceof ScanDoubt)) throw error;
    // In an interpolation's code: where the literal goes on is not known.
    ranges.length = 0;
    state.carry = undefined;
    state.lost = true;
    return;
  }
  if (start === undefined) return;
  if (index === 0 && dialect.regex && text.startsWith("#!")) {
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
    state.unclosed = undefined;
    state.lost = error.nested || opensOverLines(text.slice(error.at), dialect);
    forgetSlashContext(state.slash);
    return;
  }
  const unclosed = state.unclosed;
  state.unclosed = undefined;
  if (unclosed) leaveOpen(text, unclosed.at, unclosed.opening, unclosed.end, dialect, state, ranges);
}

/**
 * Closes on `text` what the line before left open: returns where code starts after it, or
 * undefined when the line ends in it (then carried on in `state.carry`, or `state.lost`).
 */
function closeCarried(
  text: string,
  carried: Carry | undefined,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): number | undefined {
  switch (carried?.kind) {
    case undefined:
      return 0;
    case "line-comment":
      ranges.push([0, text.length]);
      if (endsInBackslash(text)) state.carry = carried;
      return undefined;
    case "comment": {
      const end = blockCommentEnd(text, 0, carried.depth, dialect.nestedComments);
      if (typeof end === "number") {
        ranges.push([0, end]);
        return end;
      }
      ranges.push([0, text.length]);
      state.carry = { kind: "comment", depth: end.depth };
      return undefined;
    }
    case "literal":
      return goOnWithLiteral(text, 0, carried.opening, dialect, state, ranges);
    case "interpolation": {
      const inner: LineState = { inOrder: true, slash: carried.slash, braces: carried.depth };
      const end = scanCode(text, 0, dialect, ranges, inner, true);
      if (end < text.length) {
        // The `}` that closes it: the literal's text goes on after it.
        return goOnWithLiteral(text, end, { ...carried.literal, body: end + 1 }, dialect, state, ranges);
      }
      if (inner.open) state.lost = true;
      else state.carry = { ...carried, depth: inner.braces ?? 0 };
      return undefined;
    }
  }
}

/**
 * Reads the literal `opening` on from `at`: returns the index after it, or undefined when the
 * line ends in it (see {@link leaveOpen}).
 */
function goOnWithLiteral(
  text: string,
  at: number,
  opening: Opening,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): number | undefined {
  const end = scanLiteral(text, at, opening, dialect, ranges, true);
  if (typeof end === "number") {
    afterLiteral(state.slash);
    return end;
  }
  leaveOpen(text, at, opening, end, dialect, state, ranges);
  return undefined;
}

/**
 * A literal opened at `at` (or gone on with from there) that the line ends in: blanked to the
 * line's end and carried when it may run over lines (a template literal, a triple-quoted or raw
 * string, a string continued by `\`); an interpolation's code going on over lines is carried
 * too, unless something opened in that code is left open as well. Otherwise the literal is taken
 * as code from `at`, and what it holds may open something the next lines are in.
 */
function leaveOpen(
  text: string,
  at: number,
  opening: Opening,
  end: Unclosed,
  dialect: Dialect,
  state: LineState,
  ranges: Range[],
): void {
  if (end.open === "interpolation") {
    if (opening.overLines && end.inner && !end.inner.open) {
      ranges.push(...end.found);
      state.carry = {
        kind: "interpolation",
        literal: opening,
        depth: end.inner.braces ?? 0,
        slash: end.inner.slash,
      };
    } else state.lost = true;
    return;
  }
  if (opening.overLines || end.continued) {
    ranges.push(...end.found, [end.from, text.length]);
    state.carry = { kind: "literal", opening: { ...opening, body: 0 } };
    return;
  }
  if (opensOverLines(text.slice(at), dialect)) state.lost = true;
}
