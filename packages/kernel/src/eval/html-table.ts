import { decodeEntities } from "./html-entities.js";

/** A cell's text: tags removed, character references decoded, whitespace runs one space. */
function decode(html: string): string {
  return decodeEntities(html.replace(/<[^>]+>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The first HTML table as a Markdown pipe table (a DataFrame with only an HTML form), or
 * undefined when there is no table row.
 */
export function htmlTableToText(html: string): string | undefined {
  const table = /<table[\s\S]*?<\/table>/i.exec(html)?.[0];
  if (table === undefined) return undefined;
  const rows = [...table.matchAll(/<tr[\s\S]*?<\/tr>/gi)].map((row) =>
    [...row[0].matchAll(/<t([hd])[^>]*>([\s\S]*?)<\/t\1>/gi)].map((cell) =>
      decode(cell[2] ?? "").replace(/\|/g, "\\|"),
    ),
  );
  const filled = rows.filter((row) => row.length > 0);
  const [header, ...body] = filled;
  if (header === undefined) return undefined;
  const width = Math.max(...filled.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${[...cells, ...Array<string>(width - cells.length).fill("")].join(" | ")} |`;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}
