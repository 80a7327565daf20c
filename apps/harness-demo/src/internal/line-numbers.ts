/**
 * The 1-based line number of each of `positions` (character offsets into `text`, ascending), in
 * one pass over `text`: linear in its length, whatever the number of positions.
 */
export function lineNumbersAt(text: string, positions: readonly number[]): number[] {
  const numbers: number[] = [];
  let line = 1;
  let newline = text.indexOf("\n");
  for (const position of positions) {
    while (newline !== -1 && newline < position) {
      line++;
      newline = text.indexOf("\n", newline + 1);
    }
    numbers.push(line);
  }
  return numbers;
}

/** Line numbers listed before the rest is only counted. */
export const listedLines = 20;

/**
 * "2, 6" — or, past `max` numbers, the first `max` and a count: "1, 2, …, 20 and 79980 more", so
 * that a message about thousands of matches stays short.
 */
export function listLineNumbers(numbers: readonly number[], max = listedLines): string {
  if (numbers.length <= max) return numbers.join(", ");
  return `${numbers.slice(0, max).join(", ")} and ${numbers.length - max} more`;
}
