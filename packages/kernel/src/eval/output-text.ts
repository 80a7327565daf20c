// Kernel output as the plain text the model reads.
import type { MimeBundle } from "../client/kernel-output.js";
import { htmlToText } from "./html-text.js";

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

// Python's default repr, which says nothing of the value: `<module.Class object>`,
// `<module.Class object at 0x7f…>`, `<module.Class at 0x7f…>` (a pandas Styler).
const defaultRepr = /^<[A-Za-z_][\w.]*(?: object(?: at 0x[0-9a-f]+)?| at 0x[0-9a-f]+)>$/i;

/**
 * The text form of a mime bundle: markdown; else the plain form, unless it is missing or only a
 * default object repr (`<IPython.core.display.HTML object>`), when HTML (tables as pipe tables,
 * see {@link htmlToText}), LaTeX or JSON says more. A real plain form wins over HTML: pandas'
 * is already an aligned table.
 */
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
  if (plain !== undefined && !defaultRepr.test(plain.trim())) return plain;
  const html = text("text/html");
  const htmlText = html === undefined ? "" : htmlToText(html);
  if (htmlText !== "") return htmlText;
  const latex = text("text/latex");
  if (latex !== undefined) return latex;
  const json = data["application/json"];
  if (json !== undefined) return JSON.stringify(json, null, 2);
  return plain ?? (html === undefined ? undefined : "");
}
