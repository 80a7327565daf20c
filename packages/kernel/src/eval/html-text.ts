import { decodeEntities } from "./html-entities.js";
import { pipeTable } from "./html-table.js";
import { htmlTokens } from "./html-tokens.js";

/**
 * How much of an HTML output {@link htmlToText} converts, in UTF-16 code units; a last line says
 * the rest was cut.
 */
export const htmlTextLimit = 1_000_000;

// Elements that start a line of their own (closing or opening); `li` also gets a bullet.
const blocks = new Set(
  "address article aside blockquote caption dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul br".split(
    " ",
  ),
);

/** A table being read: its rows of cell texts, and the row and cell open now. */
interface OpenTable {
  readonly rows: string[][];
  row: string[] | undefined;
  cell: string[] | undefined;
  /** Inside its `<thead>` now. */
  inHead: boolean;
  /** The row open now has only `<th>` cells so far. */
  rowAllHeads: boolean;
  /**
   * Its header rows: those in `<thead>`, or of `<th>` cells only, before the first other row (a
   * DataFrame with a named index or MultiIndex columns has two).
   */
  headerRows: number;
  /** A row that is not a header row has been read. */
  body: boolean;
}

/**
 * Output so far: text outside tables (whitespace runs one space, `\n` where a block breaks the
 * line), a `<pre>`'s text as written, or a table.
 */
interface Part {
  readonly kind: "flow" | "pre" | "table";
  text: string;
}

/**
 * HTML as the text a reader sees: every table as a Markdown pipe table (see {@link pipeTable}; a
 * table in a cell as its cells' text), other elements as their text, block elements on lines of
 * their own, list items with `- `, character references decoded; `<style>`, `<script>` and
 * comments dropped. Whitespace runs are one space, as a browser shows them, except in `<pre>`,
 * whose lines and indentation stay. Only the first {@link htmlTextLimit} characters are read (in
 * one pass, see {@link htmlTokens}); a last line says how many there were. A table open where
 * the HTML is cut loses the row open there (its last value may be cut short), and the last line
 * says how many rows it shows.
 */
export function htmlToText(html: string): string {
  const parts: Part[] = [{ kind: "flow", text: "" }];
  const tables: OpenTable[] = [];
  // The open tables with an open cell, innermost last: cells open and close only in the innermost.
  const withCell: OpenTable[] = [];
  let pre = 0;
  const append = (kind: Part["kind"], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === kind && kind !== "table") last.text += text;
    else parts.push({ kind, text });
  };
  // Text in a table but not in a cell shows before the table (a browser moves it there).
  const write = (text: string) => {
    const cell = withCell.at(-1)?.cell;
    if (cell) cell.push(text);
    else if (pre > 0) append("pre", text);
    else append("flow", text.replace(/\s+/g, " "));
  };
  const breakLine = (bullet: boolean) => {
    if (withCell.length > 0) write(" ");
    else if (pre === 0) append("flow", bullet ? "\n- " : "\n");
    else if (!bullet) append("pre", "\n");
  };
  const closeCell = (table: OpenTable) => {
    if (table.cell === undefined) return;
    (table.row ??= []).push(cellText(table.cell.join("")));
    table.cell = undefined;
    withCell.pop();
  };
  const closeRow = (table: OpenTable) => {
    closeCell(table);
    if (table.row !== undefined) {
      table.rows.push(table.row);
      if (!table.body && (table.inHead || table.rowAllHeads)) table.headerRows++;
      else table.body = true;
    }
    table.row = undefined;
    table.rowAllHeads = true;
  };
  const closeTable = () => {
    const table = tables.pop();
    if (table === undefined) return;
    closeRow(table);
    if (tables.length > 0) write(` ${table.rows.flat().join(" ")} `);
    else {
      const text = pipeTable(table.rows);
      if (text !== undefined) parts.push({ kind: "table", text });
    }
  };

  const cut = html.length > htmlTextLimit;
  for (const token of htmlTokens(cut ? html.slice(0, htmlTextLimit) : html)) {
    if (token.kind === "text") {
      write(token.text);
      continue;
    }
    const table = tables.at(-1);
    const { name } = token;
    if (token.kind === "start") {
      if (name === "table") {
        tables.push({
          rows: [],
          row: undefined,
          cell: undefined,
          inHead: false,
          rowAllHeads: true,
          headerRows: 0,
          body: false,
        });
      } else if (name === "thead" && table) {
        closeRow(table);
        table.inHead = true;
        breakLine(false);
      } else if (name === "tr" && table) closeRow(table);
      else if ((name === "td" || name === "th") && table) {
        closeCell(table);
        if (name === "td") table.rowAllHeads = false;
        table.cell = [];
        withCell.push(table);
      } else if (name === "pre") {
        breakLine(false);
        pre++;
        // A line break just after `<pre>` is not shown.
        if (pre === 1 && withCell.length === 0) parts.push({ kind: "pre", text: "" });
      } else if (blocks.has(name)) breakLine(name === "li");
      continue;
    }
    if (name === "table") closeTable();
    else if (name === "thead" && table) {
      closeRow(table);
      table.inHead = false;
      breakLine(false);
    } else if (name === "tr" && table) closeRow(table);
    else if ((name === "td" || name === "th") && table) closeCell(table);
    else if (name === "pre" && pre > 0) {
      pre--;
      if (pre === 0) parts.push({ kind: "flow", text: "\n" });
    } else if (blocks.has(name)) breakLine(false);
  }
  // Where the HTML was cut, the row open there is incomplete, its last cell possibly a value cut
  // short (2000148925 read as 20001): it is left out, with what tables in it had.
  let rowsShown: number | undefined;
  let headerRows = 1;
  if (cut && tables.length > 0) {
    const outer = tables[0] as OpenTable;
    tables.length = 1;
    withCell.length = 0;
    outer.row = undefined;
    outer.cell = undefined;
    const filled = outer.rows.filter((row) => row.length > 0).length;
    // The pipe table's header is its first row; the other header rows show as rows, not counted.
    headerRows = Math.max(1, outer.headerRows);
    if (filled > 0) rowsShown = Math.max(0, filled - headerRows);
  }
  while (tables.length > 0) closeTable();

  const lines = parts.flatMap((part) => {
    if (part.kind === "table") return [part.text];
    const text = decodeEntities(part.text);
    if (part.kind === "pre")
      return [text.replace(/^\r?\n/, "").trimEnd()].filter((block) => block.trim() !== "");
    return text
      .split("\n")
      .map((line) => line.replace(/\s+/g, " ").trim())
      .filter((line) => line !== "");
  });
  if (cut) {
    const table =
      rowsShown === undefined
        ? ""
        : `; the table cut there shows its first ${rowsShown} row${rowsShown === 1 ? "" : "s"} under its header${headerRows > 1 ? ` (its ${headerRows} header rows not counted)` : ""}, the row cut short left out`;
    lines.push(`… (HTML cut: only its first ${htmlTextLimit} of ${html.length} characters shown${table})`);
  }
  return lines.join("\n");
}

/** A cell's text: character references decoded, whitespace runs one space. */
function cellText(html: string): string {
  return decodeEntities(html).replace(/\s+/g, " ").trim();
}
