import { StringDecoder } from "node:string_decoder";
import { boundText, countNoun } from "@tools/registry";

/** Characters kept from the start and from the end of a command's output. */
const keptChars = 256 * 1024;
/** Lines shown from the start and from the end of long output. */
const headLines = 80;
const tailLines = 120;

/**
 * Collects a process's combined output with bounded memory: the first and the last 256 Ki characters
 * are kept, the middle is only counted (its lines and characters). Each stream is decoded by its own
 * UTF-8 decoder, so a character split across two reads of a pipe arrives whole.
 */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private newlines = 0;
  private lastChar = "";
  private dropped = 0;
  private readonly decoders = new Map<string, StringDecoder>();

  /** Adds a chunk of `stream` (`stdout`, `stderr`: each has its own decoder). */
  push(chunk: Buffer | string, stream = "stdout"): void {
    if (typeof chunk === "string") {
      this.add(chunk);
      return;
    }
    let decoder = this.decoders.get(stream);
    if (!decoder) {
      decoder = new StringDecoder("utf8");
      this.decoders.set(stream, decoder);
    }
    this.add(decoder.write(chunk));
  }

  /** Flushes every stream's decoder: bytes of a character never completed become U+FFFD. */
  end(): void {
    for (const decoder of this.decoders.values()) this.add(decoder.end());
    this.decoders.clear();
  }

  private add(text: string): void {
    if (text === "") return;
    this.total += text.length;
    for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
      this.newlines++;
    }
    this.lastChar = text[text.length - 1] as string;
    if (this.head.length < keptChars) {
      const room = keptChars - this.head.length;
      this.head += text.slice(0, room);
      if (text.length <= room) return;
      this.tail += text.slice(room);
    } else {
      this.tail += text;
    }
    if (this.tail.length > keptChars) {
      this.dropped += this.tail.length - keptChars;
      this.tail = this.tail.slice(-keptChars);
    }
  }

  /** True when nothing was written. */
  get empty(): boolean {
    return this.total === 0;
  }

  /**
   * The output bounded for the model: whole when it is short, else the first 80 and the last 120
   * lines (each side also limited in characters) with one note between them saying what was left
   * out.
   */
  render(): string {
    this.end();
    if (this.dropped === 0) {
      const whole = boundText(this.head + this.tail, { maxLines: headLines + tailLines, maxChars: 24_000 });
      if (!whole.truncated) return whole.text;
    }
    const lines = (this.head + this.tail).split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const headCount = Math.min(headLines, lines.length);
    const tailCount = Math.min(tailLines, lines.length - headCount);
    const headPart = boundText(lines.slice(0, headCount).join("\n"), {
      maxLines: headLines,
      maxChars: 8_000,
    });
    const tailPart = boundText(lines.slice(lines.length - tailCount).join("\n"), {
      keep: "tail",
      maxLines: tailLines,
      maxChars: 16_000,
    });
    // Counted over everything written, not only what was kept: the middle that was only counted
    // holds most of the lines of a long output.
    const totalLines = this.newlines + (this.lastChar === "\n" ? 0 : 1);
    const omitted = Math.max(0, totalLines - headCount - tailCount);
    // Each shown line with its line end (the last one's only when the output ended with one).
    const shownChars =
      lines.slice(0, headCount).join("\n").length +
      (headCount > 0 ? 1 : 0) +
      lines.slice(lines.length - tailCount).join("\n").length +
      (tailCount > 0 && this.lastChar === "\n" ? 1 : 0);
    const omittedChars = Math.max(0, this.total - shownChars);
    const middle =
      omitted > 0
        ? [
            `… ${omitted} ${countNoun(omitted, "lines")} (${omittedChars} ${countNoun(omittedChars, "characters")}) left out …`,
          ]
        : [];
    return [headPart.text, ...middle, ...(tailCount > 0 ? [tailPart.text] : [])].join("\n");
  }
}
