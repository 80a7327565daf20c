/** True when `text` has more than white space: a brief or message with something in it. */
export function hasText(text: string): boolean {
  return text.trim() !== "";
}
