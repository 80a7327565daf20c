/** Character bigrams of a string, for a cheap similarity measure. */
function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < text.length - 1; index++) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const first = bigrams(a);
  const second = bigrams(b);
  let shared = 0;
  for (const [pair, count] of first) shared += Math.min(count, second.get(pair) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/**
 * The line of `lines` most like `wanted` (both compared trimmed), when it is similar enough to be
 * a useful hint: `{ line: 1-based number, text }`, or undefined.
 */
export function closestLine(
  lines: readonly string[],
  wanted: string,
  threshold = 0.5,
): { line: number; text: string } | undefined {
  const target = wanted.trim();
  if (target === "") return undefined;
  let best: { line: number; text: string; score: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] as string;
    const score = similarity(text.trim(), target);
    if (score >= threshold && (!best || score > best.score)) best = { line: index + 1, text, score };
  }
  return best && { line: best.line, text: best.text };
}
