/**
 * Rows of cell texts as a Markdown pipe table, the first row its header (a DataFrame with only
 * an HTML form); short rows are padded, `|` in a cell is escaped. Undefined when no row has a cell.
 */
export function pipeTable(rows: readonly (readonly string[])[]): string | undefined {
  const filled = rows.filter((row) => row.length > 0);
  const [header, ...body] = filled;
  if (header === undefined) return undefined;
  const width = Math.max(...filled.map((row) => row.length));
  const line = (cells: readonly string[]) =>
    `| ${[...cells.map((cell) => cell.replace(/\|/g, "\\|")), ...Array<string>(width - cells.length).fill("")].join(" | ")} |`;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}
