import { boundText, countNoun } from "@tools/registry";

/** Characters kept from the start and from the end of a command's output. */
const keptChars = 256 * 1024;
/** Lines shown from the start and from the end of long output. */
const headLines = 80;
const tailLines = 120;

/**
 * Collects a process's combined output with bounded memory: the first and the last 256 Ki characters
 * are kept, the middle is only counted.
 */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private dropped = 0;

  push(chunk: Buffer | string): void {
    const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
    this.total += text.length;
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
    const omitted = lines.length - headCount - tailCount;
    const notes = [
      ...(omitted > 0 ? [`${omitted} ${countNoun(omitted, "lines")}`] : []),
      ...(this.dropped > 0 ? [`about ${this.dropped} characters not kept`] : []),
    ];
    const middle = notes.length > 0 ? [`… ${notes.join(" and ")} left out …`] : [];
    return [headPart.text, ...middle, ...(tailCount > 0 ? [tailPart.text] : [])].join("\n");
  }
}
