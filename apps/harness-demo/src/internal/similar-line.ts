/** Character bigrams of a string, for a cheap similarity measure. */
function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < text.length - 1; index++) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice coefficient of `a` against the precomputed bigrams of a string of `targetLength`. */
function diceAgainst(a: string, target: Map<string, number>, targetLength: number): number {
  const first = bigrams(a);
  let shared = 0;
  for (const [pair, count] of first) shared += Math.min(count, target.get(pair) ?? 0);
  return (2 * shared) / (a.length - 1 + targetLength - 1);
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  return diceAgainst(a, bigrams(b), b.length);
}

/**
 * Bounds of {@link closestLine}'s search: at most `maxLines` lines are looked at (from the top),
 * and at most `maxChars` characters of them in all; a line longer than `maxLineChars` is compared
 * by its start only. Without them a hint on a file of millions of lines held the event loop for
 * seconds.
 */
export interface ClosestLineBounds {
  readonly maxLines: number;
  readonly maxChars: number;
  readonly maxLineChars: number;
}

export const closestLineBounds: ClosestLineBounds = {
  maxLines: 50_000,
  maxChars: 2_000_000,
  maxLineChars: 1_000,
};

/**
 * The line of `lines` most like `wanted` (both compared trimmed), when it is similar enough to be
 * a useful hint: `{ line: 1-based number, text }`, or undefined. The target's bigrams are built
 * once; a line whose length alone rules out beating the best score so far is skipped without
 * building its own; the search stops at `bounds` (the best found so far is returned).
 */
export function closestLine(
  lines: readonly string[],
  wanted: string,
  threshold = 0.5,
  bounds: ClosestLineBounds = closestLineBounds,
): { line: number; text: string } | undefined {
  const target = wanted.trim().slice(0, bounds.maxLineChars);
  if (target === "") return undefined;
  const targetBigrams = bigrams(target);
  let best: { line: number; text: string; score: number } | undefined;
  let chars = 0;
  const end = Math.min(lines.length, bounds.maxLines);
  for (let index = 0; index < end && chars < bounds.maxChars; index++) {
    const text = lines[index] as string;
    const trimmed = text.trim().slice(0, bounds.maxLineChars);
    chars += trimmed.length;
    let score: number;
    if (trimmed === target) score = 1;
    else if (trimmed.length < 2 || target.length < 2) score = 0;
    else {
      // Dice can be at most 2·min/(sum) of the bigram counts: skip lines that cannot win.
      const small = Math.min(trimmed.length, target.length) - 1;
      const ceiling = (2 * small) / (trimmed.length - 1 + target.length - 1);
      if (ceiling < threshold || (best && ceiling <= best.score)) continue;
      score = diceAgainst(trimmed, targetBigrams, target.length);
    }
    if (score >= threshold && (!best || score > best.score)) best = { line: index + 1, text, score };
    if (score === 1) break;
  }
  return best && { line: best.line, text: best.text };
}
