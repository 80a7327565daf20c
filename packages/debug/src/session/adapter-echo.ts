/**
 * Adapter console lines that say nothing of the program: delve's banner for its own terminal,
 * and the exit line of lldb-dap (and delve), which repeats the exit the tool reports itself.
 * Matched on one line (its newline included); the program's own output is never matched, as
 * only the `console` category is checked.
 */
const echoes: readonly RegExp[] = [
  /^Type 'dlv help' for list of commands\.\s*$/,
  // Linear in the line: no two quantifiers take the same characters.
  /^Process \d+ (has )?exited with status\b[^\n]*\n?$/,
];

/**
 * The longest line taken for an echo, in characters: the echoes are one short line each
 * (lldb-dap's "Process 17409 exited with status = 0 (0x00000000) \r\n" is 51). A longer one is
 * output, kept without matching it at all: an output event's line has no bound of its own (the
 * ring cuts its entries after this check), and console lines carry text the adapter quotes.
 */
export const longestEcho = 200;

/** True for a line of the adapter's `console` stream that only repeats what the tool says. */
export function isAdapterEcho(category: string, line: string): boolean {
  return category === "console" && line.length <= longestEcho && echoes.some((echo) => echo.test(line));
}
