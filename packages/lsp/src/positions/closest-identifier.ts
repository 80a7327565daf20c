import { identifiers } from "./identifier-chars.js";

/**
 * The identifier of the line's code (string literals and comments left out) closest to
 * `symbol` by edit distance (case aside), among those containing it or contained in it (3
 * characters at least, half its length at least) and those within a small distance (1 for names
 * up to 5 characters, 2 above): the closest wins, not the first. Undefined when none is close.
 */
export function closestIdentifier(text: string, symbol: string): string | undefined {
  const code = text
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, " ")
    .replace(/\/\/.*$/, "")
    .replace(/(^|\s)#\s.*$/, "$1");
  const found = new Set(code.match(identifiers()) ?? []);
  const wanted = symbol.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const identifier of found) {
    const candidate = identifier.toLowerCase();
    const shorter = Math.min(candidate.length, wanted.length);
    const longer = Math.max(candidate.length, wanted.length);
    const contains =
      shorter >= 3 && shorter * 2 >= longer && (candidate.includes(wanted) || wanted.includes(candidate));
    const distance = editDistance(candidate, wanted);
    const score = contains || distance <= (wanted.length <= 5 ? 1 : 2) ? distance : undefined;
    if (score !== undefined && score < bestScore) {
      best = identifier;
      bestScore = score;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}
