import { boundText, imagePart, type ContentPart } from "@tools/registry";
import type { KernelOutput, MimeBundle } from "../client/kernel-output.js";
import { htmlTableToText } from "./html-table.js";

/** Bounds of what one cell returns. */
export interface OutputLimits {
  /** Most characters of text over the whole cell; default 20 000. */
  readonly maxChars: number;
  /** Most lines of text over the whole cell; default 400. */
  readonly maxLines: number;
  /** Most images per cell; default 8. */
  readonly maxImages: number;
  /** Largest image kept, in bytes (decoded); default 5 MB. */
  readonly maxImageBytes: number;
}

/** Defaults of {@link OutputLimits}. */
export const defaultOutputLimits: OutputLimits = {
  maxChars: 20_000,
  maxLines: 400,
  maxImages: 8,
  maxImageBytes: 5 * 1024 * 1024,
};

type Piece = { kind: "text"; text: string } | { kind: "image"; data: Uint8Array; mimeType: string };

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

/**
 * Gathers a cell's outputs in order — streams, display() calls, the last expression's echo,
 * errors — and turns them into result parts. Memory is bounded while the cell runs (a 10 MB print
 * arrives as one message): text beyond twice the limit is only counted.
 */
export class OutputCollector {
  private readonly pieces: Piece[] = [];
  private readonly seenImages = new Set<string>();
  private keptChars = 0;
  private droppedChars = 0;
  private droppedImages = 0;
  private errorText: string | undefined;

  constructor(private readonly limits: OutputLimits = defaultOutputLimits) {}

  /** The error's name, value and traceback, when the cell raised. */
  get error(): string | undefined {
    return this.errorText;
  }

  add(output: KernelOutput): void {
    switch (output.type) {
      case "stream":
        this.addText(output.text, true);
        return;
      case "display":
        this.addBundle(output.data);
        return;
      case "error": {
        const traceback = output.traceback.length > 0 ? output.traceback.join("\n") : "";
        const text = plainText(traceback || `${output.ename}: ${output.evalue}`);
        this.errorText = plainText(`${output.ename}: ${output.evalue}`);
        this.addText(text.endsWith("\n") ? text : `${text}\n`, false);
        return;
      }
      case "clear":
        this.pieces.length = 0;
        this.keptChars = 0;
        return;
    }
  }

  /** A note in the output (the harness's own words, e.g. about a restart). */
  note(text: string): void {
    this.addText(`${text}\n`, false);
  }

  private addText(text: string, mergeable: boolean): void {
    if (text === "") return;
    const room = this.limits.maxChars * 2 - this.keptChars;
    if (room <= 0) {
      this.droppedChars += text.length;
      return;
    }
    const kept = text.length > room ? text.slice(0, room) : text;
    this.droppedChars += text.length - kept.length;
    this.keptChars += kept.length;
    const last = this.pieces[this.pieces.length - 1];
    if (mergeable && last?.kind === "text") last.text += kept;
    else this.pieces.push({ kind: "text", text: kept });
  }

  private addBundle(data: MimeBundle): void {
    for (const mimeType of ["image/png", "image/jpeg"]) {
      const encoded = data[mimeType];
      if (typeof encoded !== "string") continue;
      // A figure returned as the last expression arrives twice (result + end-of-cell display).
      if (this.seenImages.has(encoded)) return;
      this.seenImages.add(encoded);
      const bytes = Buffer.from(encoded, "base64");
      const images = this.pieces.filter((piece) => piece.kind === "image").length;
      if (images >= this.limits.maxImages || bytes.length > this.limits.maxImageBytes) {
        this.droppedImages++;
        this.addText(`[image ${mimeType}, ${bytes.length} bytes, not shown: over the image limit]\n`, true);
        return;
      }
      this.pieces.push({ kind: "image", mimeType, data: new Uint8Array(bytes) });
      return;
    }
    const text = bundleText(data);
    if (text !== undefined) this.addText(text.endsWith("\n") ? text : `${text}\n`, false);
  }

  /** The result parts: text bounded as one budget over the cell, images as image parts. */
  parts(): ContentPart[] {
    const parts: ContentPart[] = [];
    let charsLeft = this.limits.maxChars;
    let linesLeft = this.limits.maxLines;
    let truncated = false;
    for (const piece of this.pieces) {
      if (piece.kind === "image") {
        parts.push(imagePart(piece.data, piece.mimeType));
        continue;
      }
      const text = plainText(piece.text).replace(/\n$/, "");
      if (charsLeft <= 0 || linesLeft <= 0) {
        truncated = true;
        continue;
      }
      const bounded = boundText(text, { maxChars: charsLeft, maxLines: linesLeft });
      truncated ||= bounded.truncated;
      charsLeft -= bounded.text.length;
      linesLeft -= bounded.text.split("\n").length;
      const previous = parts[parts.length - 1];
      if (previous?.type === "text")
        parts[parts.length - 1] = { type: "text", text: `${previous.text}\n${bounded.text}` };
      else parts.push({ type: "text", text: bounded.text });
    }
    const notes: string[] = [];
    if (this.droppedChars > 0) notes.push(`${this.droppedChars} characters of output were not kept`);
    if (this.droppedImages > 0) notes.push(`${this.droppedImages} images were left out`);
    if (truncated && notes.length === 0) notes.push("the output was cut to the limit");
    if (notes.length > 0) {
      parts.push({
        type: "text",
        text: `… ${notes.join("; ")}. Print less, or write large results to a file and read parts of it.`,
      });
    }
    return parts;
  }
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
