import { lineSpans } from "./line-ends.js";

/** A 0-based line and a UTF-16 column, as LSP positions are. */
export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

/**
 * How one server sees a file's text, declared per server in the server table. The user sees it
 * as the harness's `read` does: lines end at `\n` only, columns count UTF-16 code units, and a
 * leading byte order mark is the first character of line 1.
 */
export interface TextRule {
  /**
   * What ends a line for the server besides `\n`: a lone `\r` (`\r\n` stays one line end),
   * U+2028 and U+2029 (tsserver counts all three; pyright a lone `\r`).
   */
  readonly lineBreaks: readonly LineBreak[];
  /**
   * What ends a line besides `\n` in the positions the server is sent (a hover's, a
   * definition's), when not {@link lineBreaks}: clangd reads them with `\n` only, but answers
   * with clang's line table, which ends a line at a lone `\r` too.
   */
  readonly sentLineBreaks?: readonly LineBreak[];
  /**
   * `stripped`: the server drops a leading U+FEFF when it reads the file from disk (tsserver),
   * so it is sent without it too and its columns on line 1 are one less than the user's.
   * `counted`: it is a character like any other (pyright, gopls, clangd).
   */
  readonly bom: "stripped" | "counted";
  /**
   * Characters on which the server's handling of a full-text didChange and the server itself
   * count lines differently (typescript-language-server computes the end of the replaced range
   * with LSP's line ends, then tsserver applies it with its own, which also end a line at
   * U+2028/U+2029: only part of the old text is replaced). A change from or to a text holding
   * one is sent as close + reopen instead.
   */
  readonly changeUnsafe?: RegExp;
}

/** A character other than `\n` that a server may end a line at (a `\r` only when alone). */
export type LineBreak = "\r" | "\u2028" | "\u2029";

/** The rule of a server that sees the text as the user does (gopls, clangd). */
export const userRule: TextRule = { lineBreaks: [], bom: "counted" };

const byteOrderMark = 0xfeff;
const loneCarriageReturn = /\r(?!\n)/;
const lineSeparators = /[\u2028\u2029]/;

/**
 * The text to send the server for the file text `text` (what it would read from disk): without
 * its byte order mark for a server that strips it. The same string when nothing changes.
 */
export function serverText(text: string, rule: TextRule): string {
  return rule.bom === "stripped" && text.charCodeAt(0) === byteOrderMark ? text.slice(1) : text;
}

/**
 * True when the server's positions in `text` differ from the user's: a quick scan, and none for a
 * server that sees text as the user does.
 */
export function needsView(text: string, rule: TextRule): boolean {
  if (rule.bom === "stripped" && text.charCodeAt(0) === byteOrderMark) return true;
  const breaks = rule.sentLineBreaks ? [...rule.lineBreaks, ...rule.sentLineBreaks] : rule.lineBreaks;
  if (breaks.length === 0) return false;
  if (breaks.includes("\r") && loneCarriageReturn.test(text)) return true;
  return (breaks.includes("\u2028") || breaks.includes("\u2029")) && lineSeparators.test(text);
}

/**
 * The mapping between the user's positions in a file's text and the server's, or undefined when
 * they are the same (see {@link needsView}): callers then pass positions through untouched.
 */
export function textView(text: string, rule: TextRule): TextView | undefined {
  return needsView(text, rule) ? new TextView(text, rule) : undefined;
}

/**
 * Positions in one text, converted between the user's lines (split at `\n`) and the server's
 * (its {@link TextRule}), through the offset both name. A column past its line's end is taken
 * as the line's end, as LSP says.
 */
export class TextView {
  private readonly userStarts: number[];
  private readonly userEnds: number[];
  /** The server's lines in the positions it answers with. */
  private readonly serverStarts: number[];
  private readonly serverEnds: number[];
  /** The server's lines in the positions it is sent. */
  private readonly sentStarts: number[];
  /** Characters the server's text lacks at its start (a stripped byte order mark). */
  private readonly shift: number;

  constructor(text: string, rule: TextRule) {
    const spans = lineSpans(text);
    this.userStarts = spans.starts;
    this.userEnds = spans.ends;
    const seen = serverText(text, rule);
    this.shift = text.length - seen.length;
    const server = serverLines(seen, rule.lineBreaks);
    this.serverStarts = server.starts;
    this.serverEnds = server.ends;
    this.sentStarts = rule.sentLineBreaks ? serverLines(seen, rule.sentLineBreaks).starts : server.starts;
  }

  /** The server's position for the user's `position`. */
  toServer(position: TextPosition): TextPosition {
    const offset = offsetOf(this.userStarts, this.userEnds, position);
    return positionOf(this.sentStarts, Math.max(0, offset - this.shift));
  }

  /** The user's position for the server's `position`. */
  toUser(position: TextPosition): TextPosition {
    return positionOf(this.userStarts, offsetOf(this.serverStarts, this.serverEnds, position) + this.shift);
  }
}

function offsetOf(starts: readonly number[], ends: readonly number[], position: TextPosition): number {
  const last = starts.length - 1;
  if (position.line > last) return ends[last]!;
  const line = Math.max(0, position.line);
  return Math.min(starts[line]! + Math.max(0, position.character), ends[line]!);
}

function positionOf(starts: readonly number[], offset: number): TextPosition {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low, character: offset - starts[low]! };
}

/** Line starts and content ends of `text` as a server ending lines at `\n` and `breaks` splits it. */
function serverLines(text: string, breaks: readonly LineBreak[]): { starts: number[]; ends: number[] } {
  const cr = breaks.includes("\r");
  const ls = breaks.includes("\u2028");
  const ps = breaks.includes("\u2029");
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      ends.push(i > 0 && text.charCodeAt(i - 1) === 13 ? i - 1 : i);
      starts.push(i + 1);
    } else if (
      (code === 13 && cr && text.charCodeAt(i + 1) !== 10) ||
      (code === 0x2028 && ls) ||
      (code === 0x2029 && ps)
    ) {
      ends.push(i);
      starts.push(i + 1);
    }
  }
  ends.push(text.length);
  return { starts, ends };
}
