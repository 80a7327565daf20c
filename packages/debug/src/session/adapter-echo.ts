/**
 * Adapter console lines that say nothing of the program: delve's banner for its own terminal,
 * and the exit line of lldb-dap (and delve), which repeats the exit the tool reports itself.
 * Matched on one line (its newline included); the program's own output is never matched, as
 * only the `console` category is checked.
 */
const echoes: readonly RegExp[] = [
  /^Type 'dlv help' for list of commands\.\s*$/,
  /^Process \d+ (has )?exited with status\b.*\s*$/,
];

/** True for a line of the adapter's `console` stream that only repeats what the tool says. */
export function isAdapterEcho(category: string, line: string): boolean {
  return category === "console" && echoes.some((echo) => echo.test(line));
}
