import { StringDecoder } from "node:string_decoder";
import { boundText, countNoun } from "@tools/registry";
import { terminalText, withoutBinary } from "./terminal-text.js";

/** Characters kept from the start and from the end of a command's output. */
const keptChars = 256 * 1024;
/** Lines shown from the start and from the end of long output. */
const headLines = 80;
const tailLines = 120;
/** Characters shown at most from the start and from the end of long output. */
const headChars = 8_000;
const tailChars = 16_000;

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return count;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

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
  private dropped = 0;
  /** True once a byte or character was pushed (a decoder may still hold the bytes). */
  private written = false;
  private readonly decoders = new Map<string, StringDecoder>();

  /** Adds a chunk of `stream` (`stdout`, `stderr`: each has its own decoder). */
  push(chunk: Buffer | string, stream = "stdout"): void {
    if (chunk.length > 0) this.written = true;
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
    if (this.head.length < keptChars) {
      const room = keptChars - this.head.length;
      this.head += text.slice(0, room);
      if (text.length <= room) return;
      this.tail += text.slice(room);
    } else {
      this.tail += text;
    }
    // Cut back only once it holds twice what is kept: a cut copies what stays, and a command
    // writing a line at a time would otherwise copy the whole tail per line.
    if (this.tail.length > 2 * keptChars) this.cutTail();
  }

  /** Keeps the last {@link keptChars} of the tail, counting the rest as dropped. */
  private cutTail(): void {
    if (this.tail.length <= keptChars) return;
    this.dropped += this.tail.length - keptChars;
    this.tail = this.tail.slice(-keptChars);
  }

  /**
   * True when nothing was written. Output that is only the start of a character (`head -c 1` of
   * an `é`) is not empty: {@link render} shows it as U+FFFD.
   */
  get empty(): boolean {
    return !this.written;
  }

  /**
   * The output bounded for the model, as a terminal shows it (see `terminalText`): whole when it
   * is short, else the first 80 and the last 120 lines (each side also limited in characters)
   * with one note between them saying what was left out. Binary data is not shown, only said.
   */
  render(): string {
    this.end();
    this.cutTail();
    const raw = this.head + this.tail;
    // As a terminal shows it (colour codes out, a redrawn line as it was left), binary lines as a
    // note. The middle that was only counted is counted raw; what was removed here is not counted.
    const shown = (text: string): string => terminalText(withoutBinary(text));
    const kept = this.dropped === 0 ? shown(raw) : `${shown(this.head)}${shown(this.tail)}`;
    const total = this.total - (raw.length - kept.length);
    const newlines =
      kept === raw ? this.newlines : this.newlines - (countNewlines(raw) - countNewlines(kept));
    if (kept === "" && raw !== "") return "(only terminal control sequences, nothing to show)";
    if (this.dropped === 0) {
      const whole = boundText(kept, { maxLines: headLines + tailLines, maxChars: 24_000 });
      if (!whole.truncated) return whole.text;
    }
    // The head and the tail are cut by lines and by characters, each from its own end of the
    // output, so the tail always shows the last lines (also after a few very long lines).
    let headEnd = 0;
    for (let line = 0; line < headLines && headEnd < kept.length; line++) {
      const newline = kept.indexOf("\n", headEnd);
      headEnd = newline === -1 ? kept.length : newline + 1;
    }
    headEnd = Math.min(headEnd, headChars);
    const body = kept.endsWith("\n") ? kept.length - 1 : kept.length;
    let tailStart = body;
    for (let line = 0, end = body; line < tailLines; line++) {
      tailStart = end === 0 ? 0 : kept.lastIndexOf("\n", end - 1) + 1;
      if (tailStart === 0) break;
      end = tailStart - 1;
    }
    tailStart = Math.max(tailStart, kept.length - tailChars, headEnd);
    // Never split a surrogate pair.
    if (headEnd > 0 && isHighSurrogate(kept.charCodeAt(headEnd - 1))) headEnd--;
    if (tailStart < kept.length && isLowSurrogate(kept.charCodeAt(tailStart))) tailStart++;
    const headText = kept.slice(0, headEnd);
    const tailText = kept.slice(tailStart);
    // Counted over everything written, not only what was kept: the middle that was only counted
    // (dropped) holds most of a long output.
    const omittedChars = Math.max(0, total - headText.length - tailText.length);
    const omitted = Math.max(0, newlines - countNewlines(headText) - countNewlines(tailText));
    const middle =
      omittedChars === 0
        ? []
        : omitted > 0
          ? [
              `… ${omitted} ${countNoun(omitted, "lines")} (${omittedChars} ${countNoun(omittedChars, "characters")}) left out …`,
            ]
          : [`… ${omittedChars} ${countNoun(omittedChars, "characters")} left out …`];
    const parts = [headText.replace(/\n$/, ""), ...middle];
    if (tailText !== "") parts.push(tailText.replace(/\n$/, ""));
    return parts.join("\n");
  }
}
