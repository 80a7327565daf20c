/**
 * What no one sees in a text: white space, control characters, and the invisible format
 * characters (zero-width spaces and joiners, the word joiner, a byte-order mark, bidi controls, …).
 */
const invisible = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * True when `text` has something visible in it: a brief or message made of white space or of
 * invisible characters alone (`"\u200B"`) is as blank as an empty one.
 */
export function hasText(text: string): boolean {
  return text.replace(invisible, "") !== "";
}
