/** One line of a diff: kept (context), removed, or added. */
export interface LineOp {
  readonly kind: " " | "-" | "+";
  readonly line: string;
}

/** Past this many line pairs, the middle of a block is shown as removed then added, not aligned. */
const maxCells = 250_000;

/**
 * The line operations turning `before` into `after`: the common head and tail are kept, and the
 * middle is aligned on a longest common subsequence when it has at most 250,000 line pairs (else
 * all of it is removed, then added). Within a change, removals come before additions, as in `diff -u`.
 */
export function lineOps(before: readonly string[], after: readonly string[]): LineOp[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  const ops: LineOp[] = before.slice(0, head).map((line) => ({ kind: " ", line }));
  const removed = before.slice(head, before.length - tail);
  const added = after.slice(head, after.length - tail);
  if (removed.length * added.length <= maxCells) ops.push(...aligned(removed, added));
  else {
    for (const line of removed) ops.push({ kind: "-", line });
    for (const line of added) ops.push({ kind: "+", line });
  }
  for (const line of before.slice(before.length - tail)) ops.push({ kind: " ", line });
  return ops;
}

/** The ops of `before` → `after` from a longest-common-subsequence table (small inputs only). */
function aligned(before: readonly string[], after: readonly string[]): LineOp[] {
  const width = after.length + 1;
  // common[i * width + j]: length of the longest common subsequence of before[i..] and after[j..].
  const common = new Uint32Array((before.length + 1) * width);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * width + j] =
        before[i] === after[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  const ops: LineOp[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const left = before[i];
    const right = after[j];
    if (left !== undefined && left === right) {
      ops.push({ kind: " ", line: left });
      i++;
      j++;
    } else if (
      left !== undefined &&
      (right === undefined || (common[(i + 1) * width + j] ?? 0) >= (common[i * width + j + 1] ?? 0))
    ) {
      ops.push({ kind: "-", line: left });
      i++;
    } else if (right !== undefined) {
      ops.push({ kind: "+", line: right });
      j++;
    }
  }
  return ops;
}
