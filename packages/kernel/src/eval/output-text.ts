// Kernel output as the plain text the model reads.
import type { MimeBundle } from "../client/kernel-output.js";
import { htmlToText } from "./html-text.js";

// Colour and cursor escapes (tracebacks, progress bars): the model reads plain text.
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/** Plain text: ANSI codes removed, carriage-return overwrites applied per line. */
export function plainText(text: string): string {
  return overwriteLines(text.replace(ansi, ""));
}

/**
 * Carriage-return overwrites applied to a stream as it arrives, in bounded memory, so that output
 * is bounded as it reads (`\r0\r1…\r19999` is `19999`, however long the stream of updates). The
 * lines it completes come back with their overwrites applied, as {@link plainText} does per line;
 * the line still open (after the last `\n`) is held as it stands: the text after its last `\r`,
 * which keeps that `\r` (it overwrites what went out before it, if anything). A held line longer
 * than `maxHeld` characters goes out as it is.
 */
export class CarriageReturns {
  private open = "";

  constructor(private readonly maxHeld: number) {}

  /** Characters held in the open line. */
  get held(): number {
    return this.open.length;
  }

  /** Takes stream text; returns the text of the lines it completes (maybe ""). */
  write(text: string): string {
    const all = this.open + text;
    const end = all.lastIndexOf("\n");
    let done = "";
    let rest = all;
    if (end >= 0) {
      done = overwriteLines(all.slice(0, end + 1));
      rest = all.slice(end + 1);
    }
    // A trailing \r may be the start of \r\n: it stays, and the text before it with it.
    const body = rest.replace(/\r+$/, "");
    const cut = body.lastIndexOf("\r");
    rest = (cut < 0 ? body : body.slice(cut)) + (body.length < rest.length ? "\r" : "");
    if (rest.length > this.maxHeld) {
      done += rest;
      rest = "";
    }
    this.open = rest;
    return done;
  }

  /** The open line as it stands, no longer held. */
  flush(): string {
    const open = this.open;
    this.open = "";
    return open;
  }
}

/** Each line's carriage-return overwrites applied: the text after its last `\r` (`\r\n` ends a line). */
function overwriteLines(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => {
      const kept = line.replace(/\r+$/, "");
      return kept.slice(kept.lastIndexOf("\r") + 1);
    })
    .join("\n");
}

// Python's default repr, which says nothing of the value: `<module.Class object>`,
// `<module.Class object at 0x7f…>`, `<module.Class at 0x7f…>` (a pandas Styler).
const defaultRepr = /^<[A-Za-z_][\w.]*(?: object(?: at 0x[0-9a-f]+)?| at 0x[0-9a-f]+)>$/i;

/**
 * The text form of a mime bundle: markdown; else the plain form, unless it is missing or only a
 * default object repr (`<IPython.core.display.HTML object>`), when HTML (tables as pipe tables,
 * see {@link htmlToText}), LaTeX or JSON says more, or else a line per other form naming it
 * (`[image/svg+xml, 97 bytes, not shown]`). A real plain form wins over HTML: pandas'
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
  // Nothing read as text says more: each other form is named, never dropped without a word.
  const others = Object.keys(data).filter((mime) => !readAsText.has(mime));
  if (others.length > 0) return others.map((mime) => notShownText(mime, data[mime])).join("\n");
  return plain ?? (html === undefined ? undefined : "");
}

/** The forms {@link bundleText} reads as text. */
const readAsText = new Set(["text/markdown", "text/plain", "text/html", "text/latex", "application/json"]);

/**
 * The line in place of a form that is not shown: `[image/svg+xml, 97 bytes, not shown]`; its
 * size decoded for a base64 image, as UTF-8 for text, as JSON otherwise.
 */
function notShownText(mime: string, value: unknown): string {
  const text =
    typeof value === "string" ? value : Array.isArray(value) ? value.join("") : JSON.stringify(value);
  const base64 = mime.startsWith("image/") && mime !== "image/svg+xml" && typeof value === "string";
  const bytes = base64 ? Buffer.from(text, "base64").length : Buffer.byteLength(text ?? "", "utf8");
  return `[${mime}, ${bytes} bytes, not shown]`;
}
