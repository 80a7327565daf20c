import { focusOf } from "./symbol-focus.js";
import { isWhole, occurrences, wholeColumns } from "./whole-occurrences.js";

/**
 * The text to give as symbol for the name at `at` (`length` UTF-16 units) of a line `text`: the
 * shortest that occurs once on the line and that `resolvePosition` reads as that very
 * name (whole where it starts, and its focus, see {@link focusOf}, the name at `at`: in
 * `foo(bar) + foo(bar)`, `bar)` and not `+ foo(bar`, which points at the callee `foo`). Text that
 * holds no other name is preferred (`x;` picks the second `x` out of `p.x = q.x;`, where `q.x`
 * would hold two names), so a tool that wants the one identifier (lsp_rename) takes it as it is;
 * text found once before text whose first occurrence it is (the first `a` of `a.b = a.b`: `a`).
 * Every hint printed for a name comes from here. Undefined when no text within
 * {@link hintReach} characters reads so.
 */
export function uniqueOneNameContext(text: string, at: number, length: number): string | undefined {
  type Round = { names?: 1; once: boolean };
  const lands = (start: number, end: number, round: Round): string | undefined => {
    const candidate = text.slice(start, end);
    if (/^\s|\s$/.test(candidate)) return undefined;
    if (round.once ? occurrences(text, candidate).length !== 1 : wholeColumns(text, candidate)[0] !== start)
      return undefined;
    if (!isWhole(text, start, candidate.length)) return undefined;
    const focus = focusOf(candidate);
    if (round.names !== undefined && focus.names !== round.names) return undefined;
    return start + focus.offset === at && focus.name.length === length ? candidate : undefined;
  };
  // Text found once on the line first; else the first of several (the one resolvePosition takes).
  const rounds: Round[] = [{ names: 1, once: true }, { once: true }, { names: 1, once: false }];
  for (const round of rounds) {
    for (let grow = 0; grow <= Math.min(text.length, hintReach); grow++) {
      for (let left = grow; left >= 0; left--) {
        const start = at - left;
        const end = at + length + (grow - left);
        if (start < 0 || end > text.length) continue;
        const found = lands(start, end, round);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/** Most characters a hint of {@link uniqueOneNameContext} holds besides the name. */
const hintReach = 120;
