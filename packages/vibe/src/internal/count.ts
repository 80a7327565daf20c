/** A count with its noun in agreement: `count(1, "worker")` is "1 worker", `count(2, "worker")` "2 workers". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
