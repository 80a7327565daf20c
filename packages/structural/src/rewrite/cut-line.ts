/**
 * A line cut to at most `max` characters of its own (markers aside) around `changeAt`, the column
 * where it starts to differ from the line it replaces or is replaced by: up to a quarter of `max`
 * before that column, then as much as fits after it. Each cut end is marked `[… N chars …]`. A
 * line that fits is returned as it is; a context line (`changeAt` 0) shows its head.
 */
export function cutLine(line: string, changeAt: number, max: number): string {
  if (line.length <= max) return line;
  const end = Math.min(line.length, Math.max(0, Math.min(changeAt, line.length) - Math.floor(max / 4)) + max);
  const start = Math.max(0, end - max);
  const before = start > 0 ? `[… ${start} chars …]` : "";
  const after = end < line.length ? `[… ${line.length - end} chars …]` : "";
  return `${before}${line.slice(start, end)}${after}`;
}
