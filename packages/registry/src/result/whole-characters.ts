/**
 * The first `maxChars` UTF-16 units of `text`, one fewer when the cut would fall between the two
 * halves of a surrogate pair (an emoji, a rare CJK character): half a character is no text, and
 * a strict model server refuses a request carrying one.
 */
export function headOf(text: string, maxChars: number): string {
  if (maxChars <= 0) return "";
  if (text.length <= maxChars) return text;
  return text.slice(0, splitsPair(text, maxChars) ? maxChars - 1 : maxChars);
}

/** The last `maxChars` UTF-16 units of `text`, one fewer when the cut would fall inside a character. */
export function tailOf(text: string, maxChars: number): string {
  if (maxChars <= 0) return "";
  if (text.length <= maxChars) return text;
  const start = text.length - maxChars;
  return text.slice(splitsPair(text, start) ? start + 1 : start);
}

/** Whether a cut before index `at` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, at: number): boolean {
  return at > 0 && isHighSurrogate(text.charCodeAt(at - 1)) && isLowSurrogate(text.charCodeAt(at));
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
