/** Lines as sorted ranges: `3, 7–9, 12`. */
export function lineRanges(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length;) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    ranges.push(end === index ? `${sorted[index]}` : `${sorted[index]}–${sorted[end]}`);
    index = end + 1;
  }
  return ranges.join(", ");
}
