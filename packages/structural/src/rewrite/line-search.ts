/**
 * The 0-based line holding `offset`, given the offsets at which lines start (ascending, the first
 * 0): the last line starting at or before it; 0 when none does.
 */
export function lineHolding(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return Math.max(low, 0);
}

/**
 * Offsets at which each line of `text` starts: 0, and after each `\n` (also the end of a text
 * ending in a newline, an empty last line).
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}
