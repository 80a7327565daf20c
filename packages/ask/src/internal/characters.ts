// Lengths and cuts in characters (Unicode code points), as the card's limits and the JSON Schema's
// maxLength count them: an emoji is one character, not the two UTF-16 units of `String.length`.

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** How many characters `text` holds: a surrogate pair counts once, a lone half once. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let at = 0; at < text.length - 1; at++) {
    if (isHighSurrogate(text.charCodeAt(at)) && isLowSurrogate(text.charCodeAt(at + 1))) {
      count--;
      at++;
    }
  }
  return count;
}

/** The first `count` characters of `text` (never half of one). */
export function firstCharacters(text: string, count: number): string {
  return text.slice(0, unitsOf(text, 0, count, 1));
}

/** The last `count` characters of `text` (never half of one). */
export function lastCharacters(text: string, count: number): string {
  return text.slice(text.length - unitsOf(text, text.length - 1, count, -1));
}

/** How many UTF-16 units `count` characters take, read from `start` in `direction`. */
function unitsOf(text: string, start: number, count: number, direction: 1 | -1): number {
  let units = 0;
  let at = start;
  for (let taken = 0; taken < count && at >= 0 && at < text.length; taken++) {
    const pair =
      direction === 1
        ? isHighSurrogate(text.charCodeAt(at)) && isLowSurrogate(text.charCodeAt(at + 1))
        : isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1));
    const step = pair ? 2 : 1;
    units += step;
    at += step * direction;
  }
  return units;
}
