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
 * {@link boundText}'s text (whose cut falls between whole characters, its note counting what is
 * not shown exactly), without the halves of characters a cut elsewhere left alone (see
 * {@link withoutLoneHalves}).
 */
export function boundWholeText(text: string, bounds: TextBounds): string {
  return withoutLoneHalves(boundText(text, bounds).text);
}
