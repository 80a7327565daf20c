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
