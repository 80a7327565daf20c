import { charAt, charBefore, nameCharAt, nameCharBefore } from "./identifier-chars.js";

/** The columns of every occurrence of `symbol` in `text` (inside longer identifiers too). */
export function occurrences(text: string, symbol: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(symbol); at !== -1; at = text.indexOf(symbol, at + 1)) found.push(at);
  return found;
}

/**
 * True when the match is not part of a longer identifier. Only an edge that is a name character
 * needs a boundary: `push(` is whole in `items.push(item)`, though a name follows its `(`.
 */
export function isWhole(text: string, at: number, length: number): boolean {
  const end = at + length;
  return (
    (!nameCharAt(text, at) || !nameCharBefore(text, at)) &&
    (!nameCharBefore(text, end) || !nameCharAt(text, end))
  );
}

/** The columns of every whole-identifier occurrence of `symbol` in `text`. */
export function wholeColumns(text: string, symbol: string): number[] {
  return occurrences(text, symbol).filter((at) => isWhole(text, at, symbol.length));
}

/** The identifier around a substring match: `Run` inside `RunOptions` is `RunOptions`. */
export function containingIdentifier(text: string, at: number, length: number): string {
  let start = at;
  let end = at + length;
  while (start > 0 && nameCharBefore(text, start)) start -= charBefore(text, start).length;
  while (end < text.length && nameCharAt(text, end)) end += charAt(text, end).length;
  return text.slice(start, end);
}
