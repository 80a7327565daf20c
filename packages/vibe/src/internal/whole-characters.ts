import { boundText, type TextBounds } from "@tools/registry";

/**
 * The first `maxChars` UTF-16 units of `text`, one fewer when the cut would fall inside a
 * character (between the two halves of a surrogate pair: an emoji, a rare CJK character): a
 * half character reaches the model as a replacement sign or makes a request invalid.
 */
export function headOf(text: string, maxChars: number): string {
  if (maxChars <= 0) return "";
  if (text.length <= maxChars) return text;
  return isHighSurrogate(text.charCodeAt(maxChars - 1))
    ? text.slice(0, maxChars - 1)
    : text.slice(0, maxChars);
}

/** The last `maxChars` UTF-16 units of `text`, one fewer when the cut would fall inside a character. */
export function tailOf(text: string, maxChars: number): string {
  if (maxChars <= 0) return "";
  if (text.length <= maxChars) return text;
  const start = text.length - maxChars;
  return isLowSurrogate(text.charCodeAt(start)) ? text.slice(start + 1) : text.slice(start);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Half of a surrogate pair without its other half. */
const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` without the halves of characters a cut elsewhere left alone (another package's bound,
 * cutting between UTF-16 units): a request carrying one is invalid JSON text to a strict server.
 */
export function withoutLoneHalves(text: string): string {
  return text.replace(loneHalf, "");
}

/**
 * {@link boundText}'s text cut between whole characters: when its cut falls inside a surrogate
 * pair, one character less is kept, so its note ("… N more characters") counts what is not
 * shown exactly. Halves a cut elsewhere left alone are dropped too (see {@link withoutLoneHalves}).
 */
export function boundWholeText(text: string, bounds: TextBounds & { maxChars: number }): string {
  const bounded = boundText(text, bounds);
  if (bounded.omittedChars === 0) return withoutLoneHalves(bounded.text);
  // The kept characters: the first (or, keeping the tail, the last) maxChars of the text.
  const tail = bounds.keep === "tail";
  const edge = tail
    ? bounded.text.charCodeAt(bounded.text.length - bounds.maxChars)
    : bounded.text.charCodeAt(bounds.maxChars - 1);
  const split = tail ? isLowSurrogate(edge) : isHighSurrogate(edge);
  // (boundText keeps everything of a tail of 0 characters: its one half is dropped then.)
  if (!split || (tail && bounds.maxChars <= 1)) return withoutLoneHalves(bounded.text);
  return withoutLoneHalves(boundText(text, { ...bounds, maxChars: bounds.maxChars - 1 }).text);
}
