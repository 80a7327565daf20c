// Kernel output as the plain text the model reads.
import type { MimeBundle } from "../client/kernel-output.js";
import { htmlTableToText } from "./html-table.js";

// Colour and cursor escapes (tracebacks, progress bars): the model reads plain text.
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/** Plain text: ANSI codes removed, carriage-return overwrites applied per line. */
export function plainText(text: string): string {
  return text
    .replace(ansi, "")
    .split("\n")
    .map((line) => {
      const cut = line.replace(/\r+$/, "").lastIndexOf("\r");
      return cut < 0 ? line.replace(/\r+$/, "") : line.slice(cut + 1);
    })
    .join("\n");
}

/** The text form of a mime bundle: markdown, a table from HTML, or plain text. */
export function bundleText(data: MimeBundle): string | undefined {
  const text = (mime: string): string | undefined => {
    const value = data[mime];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.join("");
    return undefined;
  };
  const markdown = text("text/markdown");
  if (markdown !== undefined) return markdown;
  const plain = text("text/plain");
  const html = text("text/html");
  if (html !== undefined && /<table/i.test(html)) {
    const table = htmlTableToText(html);
    // pandas' plain form is already an aligned table; HTML wins only when there is no plain form.
    if (plain === undefined && table !== undefined) return table;
  }
  if (plain !== undefined) return plain;
  if (html !== undefined) return html.replace(/<[^>]+>/g, "").trim();
  const json = data["application/json"];
  if (json !== undefined) return JSON.stringify(json, null, 2);
  return undefined;
}
