/**
 * What a name is made of, for every place this package splits text into names: Unicode's
 * ID_Continue (letters, digits, combining marks such as the vowel sign of `मान` or the accent of
 * a decomposed `café`, and connector punctuation such as `_`), plus `$` (JavaScript, Dart) and
 * the zero-width joiners U+200C and U+200D (JavaScript, and names in Indic scripts). A mark
 * or a joiner never starts a name, but never ends one either.
 */
const nameClass = String.raw`\p{ID_Continue}$\u200C\u200D`;

/** One character (a code point) that may be part of a name. */
export const identifierChar = new RegExp(`^[${nameClass}]$`, "u");

/** A character that cannot be part of a name (found anywhere in the text tested). */
export const nonIdentifierChar = new RegExp(`[^${nameClass}]`, "u");

/** A fresh global pattern matching each run of name characters (digits-only runs included). */
export function nameRuns(): RegExp {
  return new RegExp(`[${nameClass}]+`, "gu");
}

/** A fresh global pattern matching each identifier: a letter, `_` or `$` first, then name characters. */
export function identifiers(): RegExp {
  return new RegExp(String.raw`[\p{ID_Start}_$][${nameClass}]*`, "gu");
}

/** The code point ending just before UTF-16 offset `at` of `text` (a surrogate pair whole), or "". */
export function charBefore(text: string, at: number): string {
  if (at <= 0) return "";
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text[at - 1]!;
}

/** The code point starting at UTF-16 offset `at` of `text` (a surrogate pair whole), or "". */
export function charAt(text: string, at: number): string {
  const point = text.codePointAt(at);
  return point === undefined ? "" : String.fromCodePoint(point);
}

/** Whether the code point before `at` is a name character. */
export function nameCharBefore(text: string, at: number): boolean {
  return identifierChar.test(charBefore(text, at));
}

/** Whether the code point at `at` is a name character. */
export function nameCharAt(text: string, at: number): boolean {
  return identifierChar.test(charAt(text, at));
}

/** Matches `name` as a whole name: no name character right before or after it. */
export function wholeName(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![${nameClass}])${escaped}(?![${nameClass}])`, "u");
}
