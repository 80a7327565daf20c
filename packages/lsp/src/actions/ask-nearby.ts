import { ToolsError } from "@tools/registry";
import { uniqueOneNameContext } from "../positions/name-hint.js";
import { resolvePosition, type ResolvedPosition } from "../positions/resolve-position.js";
import type { ActionInput } from "./action-context.js";

/** What {@link askNearby} asks with and how it reads the answers. */
export interface NearbyQuestion<T> {
  /** The position the symbol resolved to (with its nearby candidates, see `ResolvedPosition.next`). */
  readonly position: ResolvedPosition;
  /** The file's lines, as resolved against. */
  readonly lines: readonly string[];
  /** Line `index` (0-based) with its comments and strings blanked, columns kept (see `codeOnlyLines`). */
  readonly code: (index: number) => string;
  readonly input: ActionInput;
  /** The file as shown. */
  readonly display: string;
  /** Asks the server at a 0-based line and UTF-16 column. */
  readonly askAt: (line: number, character: number) => Promise<T>;
  /** Whether an answer found nothing. */
  readonly isEmpty: (answer: T) => boolean;
  /** What a position without an answer has no one of: "definition", "hover information". */
  readonly noun: string;
}

/** What {@link askNearby} found. */
export interface NearbyAnswer<T> {
  readonly answer: T;
  /** The position answered for (`position` itself when none answered). */
  readonly at: ResolvedPosition;
  /** The column answered for, on `at.line`. */
  readonly character: number;
  /**
   * Says which line was used, when it is not the asked one, in place of `position.note` (which
   * it replaces whenever it is set; undefined when that note does not apply either).
   */
  readonly lead?: string;
  /** Says which occurrence on the line the answer is for, when the line has several in code. */
  readonly note?: string;
}

/**
 * Asks at the resolved position and, while the server finds nothing, at the next nearby
 * candidates (`position.next`), each at every occurrence of the name on its line (see
 * {@link askAtOccurrences}). When every occurrence on the asked line lies in a comment or a
 * string and nothing was found there, the nearby lines are tried as for a name not on the line
 * (see {@link outsideText}), and the one used is said. Every action that asks about a position
 * (definition and its kin, hover) goes through here, so they pick the same position.
 */
export async function askNearby<T>(question: NearbyQuestion<T>): Promise<NearbyAnswer<T>> {
  const { position, lines, code, input, isEmpty, noun } = question;
  const first = await askAtCandidates(question, position);
  const later = triedFirst(first.used, position, noun);
  let found: { asked: Occurrence<T>; used: ResolvedPosition } = first;
  let lead = later ?? position.note;
  // Every occurrence on the asked line in a comment or a string, where the server found
  // nothing: the nearby lines are tried as for a name not on the line, and the one used is said.
  const moved = isEmpty(first.asked.answer)
    ? outsideText(position, lines, code, input, question.display)
    : undefined;
  if (moved) {
    const again = await askAtCandidates(question, moved.position);
    if (!isEmpty(again.asked.answer)) {
      found = again;
      const used = triedFirst(again.used, moved.position, noun) ?? moved.note;
      lead = used.replace(
        `'${input.symbol}' is not on line ${input.line}`,
        `'${input.symbol}' is on line ${input.line} only in a comment or string, where the server found no ${noun}`,
      );
    }
  }
  const { asked, used } = found;
  return {
    answer: asked.answer,
    at: used,
    character: asked.character,
    ...(lead !== undefined ? { lead } : {}),
    ...(asked.note !== undefined ? { note: asked.note } : {}),
  };
}

/** One position asked at (see {@link askAtOccurrences}). */
interface Occurrence<T> {
  readonly answer: T;
  readonly character: number;
  readonly note?: string;
}

/**
 * Asks at `first`, then, while the server finds nothing, at the nearby candidates ranked after
 * it (`next`, a few at most); `used` is the one answered (`first` when none is, with its answer).
 */
async function askAtCandidates<T>(
  question: NearbyQuestion<T>,
  first: ResolvedPosition,
): Promise<{ asked: Occurrence<T>; used: ResolvedPosition }> {
  let firstAnswer: Occurrence<T> | undefined;
  for (const candidate of [first, ...(first.next ?? [])]) {
    const asked = await askAtOccurrences(
      candidate,
      question.lines[candidate.line]!,
      () => question.code(candidate.line),
      (character) => question.askAt(candidate.line, character),
      question.isEmpty,
      `no ${question.noun}`,
    );
    if (!question.isEmpty(asked.answer)) return { asked, used: candidate };
    firstAnswer ??= asked;
  }
  return { asked: firstAnswer!, used: first };
}

/** The note saying which nearby line was used, when a later candidate than `first` answered. */
function triedFirst(used: ResolvedPosition, first: ResolvedPosition, noun: string): string | undefined {
  return used === first || used.note === undefined
    ? undefined
    : `${used.note} (line ${first.line + 1}, tried first, has no ${noun})`;
}

/**
 * Whether a request failed with a server's "nothing at this position" (gopls: "no identifier
 * found", "no object found for …", "no expression found"), which on a comment or a string means
 * only that nothing is there.
 */
export function nothingHere(error: unknown): boolean {
  if (!ToolsError.isInstance(error) || error.code !== "LSP_REQUEST_FAILED") return false;
  // The server's own message (ours wraps it: "gopls answered … with an error: …").
  const cause = error.cause;
  return cause instanceof Error && /^no (?:identifier|object|expression) found\b/.test(cause.message);
}

/**
 * When the asked line was used and every occurrence of the name on it lies in a comment or a
 * string (`codeOf`, see `codeOnlyLines`): the position on the nearby lines, found as for a name not on the line
 * (`resolvePosition` given the line's code only), with its note; undefined when there is none.
 */
function outsideText(
  position: ResolvedPosition,
  lines: readonly string[],
  codeOf: (index: number) => string,
  input: ActionInput,
  display: string,
): { position: ResolvedPosition; note: string } | undefined {
  const asked = input.line! - 1;
  if (position.line !== asked) return undefined;
  const code = codeOf(asked);
  const columns = [position.character, ...(position.alternatives ?? [])];
  if (columns.some((column) => code[column] !== " ")) return undefined;
  try {
    const nearby = resolvePosition(
      lines.map((line, index) => (index === asked ? code : line)),
      input.line!,
      input.symbol!,
      display,
      { codeOf: (_line, index) => codeOf(index) },
    );
    if (nearby.line === asked || nearby.note === undefined) return undefined;
    return { position: nearby, note: nearby.note };
  } catch {
    return undefined;
  }
}

/**
 * Asks at the resolved position. When the name occurs again on its line and the first finds
 * nothing (a word in a string, a property of the same name), asks at each other occurrence in
 * turn. `note` says which occurrence the answer is for whenever there were several in code
 * (`codeOfLine`: the line with comments and strings blanked, read only then); `character` is
 * the column answered for.
 */
async function askAtOccurrences<T>(
  position: ResolvedPosition,
  lineText: string,
  codeOfLine: () => string,
  askAt: (character: number) => Promise<T>,
  isEmpty: (answer: T) => boolean,
  nothing: string,
): Promise<Occurrence<T>> {
  const first = await askAt(position.character);
  const others = position.alternatives ?? [];
  if (others.length === 0) return { answer: first, character: position.character };
  if (!isEmpty(first)) {
    // A word in a string or a comment is no other symbol to pick.
    const code = codeOfLine();
    const inCode = others.filter((column) => code[column] !== " ");
    if (inCode.length === 0) return { answer: first, character: position.character };
    const hint = uniqueOneNameContext(lineText, inCode[0]!, position.length);
    const example = hint === undefined ? "" : ` (e.g. '${hint}' for the one at column ${inCode[0]! + 1})`;
    return {
      answer: first,
      character: position.character,
      note: `'${position.identifier}' occurs ${inCode.length + 1} times on line ${position.line + 1}; answered for the one at column ${position.character + 1}; for another, give text around it as symbol${example}`,
    };
  }
  for (const column of others) {
    const answer = await askAt(column);
    if (!isEmpty(answer)) {
      return {
        answer,
        character: column,
        note: `the '${position.identifier}' at column ${position.character + 1} of line ${position.line + 1} has ${nothing}; answered for the one at column ${column + 1}`,
      };
    }
  }
  return { answer: first, character: position.character };
}
