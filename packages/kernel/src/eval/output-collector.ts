import { headOf, imagePart, type ContentPart } from "@tools/registry";
import type { KernelOutput, MimeBundle } from "../client/kernel-output.js";
import { LateOutput } from "../client/late-output.js";
import { countLines, describeOmitted, headLength, tailLength } from "./cut-text.js";
import { bundleImage, ImageLimit, leftOutImagesText, overImageLimitText } from "./image-limit.js";
import { defaultOutputLimits, type OutputLimits } from "./output-limits.js";
import { bundleText, CarriageReturns, plainText } from "./output-text.js";
import { tracebackShare, tracebackText } from "./traceback-text.js";

type Entry =
  // Output: cut in the middle when the cell prints too much. Stream text runs on; a block is whole
  // lines. `joined`: the text runs on from the entry before (the rest of a text the head's end cut,
  // or of a display the kernel cut), kept apart only by the zones.
  | { readonly kind: "stream" | "block"; text: string; readonly joined?: true }
  // The error and the harness's notes: always shown.
  | { readonly kind: "pinned"; readonly text: string }
  | { readonly kind: "image"; readonly data: Uint8Array; readonly mimeType: string };

type TextEntry = Extract<Entry, { kind: "stream" | "block" }>;

const isOutputText = (entry: Entry | undefined): entry is TextEntry =>
  entry?.kind === "stream" || entry?.kind === "block";

/**
 * Gathers a cell's outputs in order — streams, display() calls, the last expression's echo,
 * errors — and turns them into result parts. When the output is over the limits, its start and
 * its end are kept with one line in between saying how much was left out; the error (its
 * traceback bounded to half the limits, see {@link tracebackText}) and the harness's notes are
 * always shown. Memory is bounded while the cell runs (a 10 MB print arrives as one message):
 * the first `maxChars` / `maxLines` of output and about the last as much are kept, what falls
 * between is only counted.
 */
export class OutputCollector {
  private entries: Entry[] = [];
  /** Set once the head is full: entries from here on are the tail, trimmed at its front. */
  private gapAt: number | undefined;
  private readonly head = { chars: 0, lines: 0 };
  private readonly tail = { chars: 0, lines: 0 };
  /** Output dropped between the head and the tail while the cell ran. */
  private readonly dropped = { chars: 0, lines: 0 };
  private readonly imageLimit: ImageLimit;
  private droppedImages = 0;
  /** Of {@link droppedImages}, those over the size limit (the rest are over the count). */
  private droppedLargeImages = 0;
  /** Output that came for an earlier cell after it finished (bounded). */
  private readonly late = new LateOutput();
  private errorText: string | undefined;
  /** Stream text's carriage returns, applied as it arrives: the result is bounded as it reads. */
  private readonly overwrites: CarriageReturns;
  /** The stream whose line {@link overwrites} holds open. */
  private openStream: string | undefined;
  /** The entry a cut display ended with: the next display's text runs on in it (see KernelOutput's `cut`). */
  private openBlock: TextEntry | undefined;

  constructor(private readonly limits: OutputLimits = defaultOutputLimits) {
    this.imageLimit = new ImageLimit(limits);
    this.overwrites = new CarriageReturns(limits.maxChars);
  }

  /** The error's name and value (`ValueError: boom`), when the cell raised. */
  get error(): string | undefined {
    return this.errorText;
  }

  add(output: KernelOutput): void {
    if (output.type === "omitted" && output.chars === 0) {
      // Only a count of images the kernel did not send: the output around it runs on as it would.
      this.droppedImages += output.images ?? 0;
      this.droppedLargeImages += output.largeImages ?? 0;
      return;
    }
    if (output.type === "stream") {
      if (this.openStream !== output.name) this.endLine();
      this.openStream = output.name;
      this.openBlock = undefined;
      this.addOutput("stream", this.overwrites.write(output.text));
      return;
    }
    if (output.type !== "late") this.endLine();
    const open = this.openBlock;
    this.openBlock = undefined;
    switch (output.type) {
      case "display":
        this.addBundle(output.data, output.cut === true, open);
        return;
      case "error": {
        this.errorText = errorLine(plainText(`${output.ename}: ${output.evalue}`));
        const { maxChars, maxLines } = this.limits;
        this.pin(tracebackText(output, tracebackShare(maxChars), tracebackShare(maxLines)));
        return;
      }
      case "omitted":
        // Left out by the kernel: counted with what falls between the head and the tail here, and
        // images over the limit (their lines were sent) with the result's own.
        this.droppedImages += output.images ?? 0;
        this.droppedLargeImages += output.largeImages ?? 0;
        this.gapAt ??= this.entries.length;
        this.dropped.chars += output.chars;
        this.dropped.lines += output.lines;
        return;
      case "late":
        this.late.add(output);
        return;
      case "clear":
        // clear_output() drops what the cell showed so far; the error and notes stay.
        this.overwrites.flush();
        this.entries = this.entries.filter((entry) => entry.kind === "pinned");
        this.gapAt = undefined;
        for (const count of [this.head, this.tail, this.dropped]) {
          count.chars = 0;
          count.lines = 0;
        }
        this.imageLimit.clearShown();
        return;
    }
  }

  /**
   * Output that came for an earlier cell after it finished, as the result's first part: under a
   * line saying so, within a quarter of the limits, with what was left out of it counted.
   */
  private lateParts(): ContentPart[] {
    const late = this.late.current();
    if (late === undefined) return [];
    const { maxChars, maxLines } = this.limits;
    const earlier = new OutputCollector({
      ...this.limits,
      maxChars: Math.max(1, Math.floor(maxChars / 4)),
      maxLines: Math.max(1, Math.floor(maxLines / 4)),
    });
    earlier.note("after the previous cell finished:");
    for (const output of late.outputs) earlier.add(output);
    if (late.left.outputs > 0) {
      const outputs = `${late.left.outputs} more output${late.left.outputs === 1 ? "" : "s"}`;
      earlier.note(`… ${outputs} (${late.left.chars.toLocaleString("en-US")} characters) of it left out …`);
    }
    earlier.note("(end of what came after the previous cell)");
    return earlier.parts();
  }

  /** A note in the output (the harness's own words, e.g. about a restart); never cut. */
  note(text: string): void {
    this.endLine();
    this.pin(text);
  }

  /** The stream line held open for carriage returns goes in as it stands (other output follows). */
  private endLine(): void {
    const open = this.overwrites.flush();
    if (open !== "") this.addOutput("stream", open);
  }

  private pin(text: string): void {
    if (text === "") return;
    this.entries.push({ kind: "pinned", text: text.endsWith("\n") ? text : `${text}\n` });
  }

  /** Adds output text; `open`: the entry it runs on from (a cut display's), if any. */
  private addOutput(kind: TextEntry["kind"], text: string, open?: TextEntry): void {
    let rest = text;
    let from = open;
    if (rest === "") return;
    if (this.gapAt === undefined) {
      const { maxChars, maxLines } = this.limits;
      const length = headLength(rest, maxChars - this.head.chars, maxLines - this.head.lines);
      const piece = rest.slice(0, length);
      if (piece !== "") {
        this.push(kind, piece, from);
        // The rest runs on from the piece: a line the head's end cuts is still one line.
        from = this.entries.at(-1) as TextEntry;
      }
      this.head.chars += piece.length;
      this.head.lines += countLines(piece);
      rest = rest.slice(length);
      if (rest === "") return;
      this.gapAt = this.entries.length;
    }
    this.push(kind, rest, from);
    this.tail.chars += rest.length;
    this.tail.lines += countLines(rest);
    this.trimTail();
  }

  /**
   * Appends output text; a stream runs on in the previous stream entry, and any text in the `from`
   * entry it continues — within one zone; across the head's end, in an entry `joined` to it.
   */
  private push(kind: TextEntry["kind"], text: string, from?: TextEntry): void {
    const index = this.entries.length - 1;
    const last = this.entries[index];
    const continues = isOutputText(last) && last === from;
    const runsOn = continues || (isOutputText(last) && kind === "stream" && last.kind === "stream");
    if (runsOn && (this.gapAt === undefined || index >= this.gapAt)) {
      last.text += text;
    } else {
      this.entries.push(continues ? { kind, text, joined: true } : { kind, text });
    }
  }

  /** Drops the front of the tail down to the limits, once it is half as much again over them. */
  private trimTail(): void {
    const { maxChars, maxLines } = this.limits;
    if (this.tail.chars <= maxChars * 1.5 && this.tail.lines <= maxLines * 1.5) return;
    let index = this.gapAt ?? 0;
    while (this.tail.chars > maxChars || this.tail.lines > maxLines) {
      const entry = this.entries[index];
      if (entry === undefined) break;
      if (!isOutputText(entry)) {
        index++;
        continue;
      }
      const overLines = Math.max(0, this.tail.lines - maxLines);
      const cut = Math.max(
        Math.min(entry.text.length, this.tail.chars - maxChars),
        headLength(entry.text, entry.text.length, overLines),
      );
      const gone = entry.text.slice(0, cut);
      const lines = countLines(gone);
      this.tail.chars -= gone.length;
      this.tail.lines -= lines;
      this.dropped.chars += gone.length;
      this.dropped.lines += lines;
      if (cut >= entry.text.length) this.entries.splice(index, 1);
      else entry.text = entry.text.slice(cut);
    }
  }

  /** A display: an image, or its text as a block on lines of its own (as it is, when `cut`). */
  private addBundle(data: MimeBundle, cut: boolean, open: TextEntry | undefined): void {
    const image = bundleImage(data);
    if (image) {
      let bytes = Buffer.alloc(0);
      const verdict = this.imageLimit.admit(image.encoded, () => {
        bytes = Buffer.from(image.encoded, "base64");
        return bytes;
      });
      if (verdict === "shown") {
        this.entries.push({ kind: "image", mimeType: image.mimeType, data: new Uint8Array(bytes) });
      } else if (verdict !== "repeat") {
        this.droppedImages++;
        if (verdict === "too large") this.droppedLargeImages++;
        this.addOutput("block", overImageLimitText(image.mimeType, bytes, verdict, this.limits));
      }
      return;
    }
    const text = bundleText(data);
    if (text === undefined || (cut && text === "")) return;
    this.addOutput("block", cut || text.endsWith("\n") ? text : `${text}\n`, open);
    const last = this.entries.at(-1);
    if (cut && isOutputText(last)) this.openBlock = last;
  }

  /** The result parts: text within the limits (start and end of the output, the error, notes), images. */
  parts(): ContentPart[] {
    this.endLine();
    const { maxChars, maxLines } = this.limits;
    const late = this.lateParts();
    let pinnedChars = 0;
    let pinnedLines = 0;
    for (const part of late) {
      if (part.type !== "text") continue;
      pinnedChars += part.text.length + 1;
      pinnedLines += countLines(part.text) + 1;
    }
    for (const entry of this.entries) {
      if (entry.kind !== "pinned") continue;
      pinnedChars += entry.text.length;
      pinnedLines += countLines(entry.text);
    }
    // The error and notes come first; output gets the rest, but never less than a quarter.
    const chars = Math.max(maxChars - pinnedChars, Math.floor(maxChars / 4));
    const lines = Math.max(maxLines - pinnedLines, Math.floor(maxLines / 4));
    const fits =
      this.dropped.chars === 0 &&
      this.head.chars + this.tail.chars <= chars &&
      this.head.lines + this.tail.lines <= lines;
    // A cut costs its marker: a line and about 160 characters.
    const shown = fits ? this.entries : this.cut(chars - 160, lines - 1);
    const parts = [...late, ...render(shown)];
    if (this.droppedImages > 0) {
      parts.push({
        type: "text",
        text: leftOutImagesText(this.droppedImages, this.droppedLargeImages, this.limits),
      });
    }
    return parts;
  }

  /**
   * The entries with the output cut to its first half-budget and its last remaining budget, one
   * marker between them counting everything left out (also what was dropped while the cell ran).
   * Errors, notes and images from the cut stretch follow the marker, in their order.
   */
  private cut(chars: number, lines: number): Entry[] {
    const entries = this.entries;
    const stop = this.gapAt ?? entries.length;
    const head: Entry[] = [];
    let charsLeft = Math.floor(chars / 2);
    let linesLeft = Math.floor(lines / 2);
    // The first output character not in the head.
    let from = 0;
    let fromOffset = 0;
    for (; from < stop; from++) {
      const entry = entries[from];
      if (entry === undefined) break;
      if (!isOutputText(entry)) {
        head.push(entry);
        continue;
      }
      const kept = entry.text.slice(0, headLength(entry.text, charsLeft, linesLeft));
      if (kept !== "") head.push({ ...entry, text: kept });
      charsLeft -= kept.length;
      linesLeft -= countLines(kept);
      if (kept.length < entry.text.length) {
        fromOffset = kept.length;
        break;
      }
    }
    charsLeft += chars - Math.floor(chars / 2);
    linesLeft += lines - Math.floor(lines / 2);

    // Walking back from the end, never into the head's part nor across output dropped meanwhile.
    const tail: Entry[] = [];
    const floor = this.dropped.chars > 0 ? Math.max(from, this.gapAt ?? from) : from;
    let to = entries.length;
    let toOffset = 0;
    for (let index = entries.length - 1; index >= floor; index--) {
      const entry = entries[index];
      if (entry === undefined) continue;
      to = index;
      toOffset = 0;
      if (!isOutputText(entry)) {
        tail.unshift(entry);
        continue;
      }
      const start = index === from ? fromOffset : 0;
      const available = entry.text.slice(start);
      const kept = available.slice(available.length - tailLength(available, charsLeft, linesLeft));
      if (kept !== "") tail.unshift({ ...entry, text: kept });
      charsLeft -= kept.length;
      linesLeft -= countLines(kept);
      if (kept.length < available.length) {
        toOffset = entry.text.length - kept.length;
        if (kept === "") {
          to = index + 1;
          toOffset = 0;
        }
        break;
      }
    }

    // Between the cuts: output is counted, the rest is kept.
    const middle: Entry[] = [];
    let omittedChars = this.dropped.chars;
    let omittedLines = this.dropped.lines;
    for (let index = from; index <= to && index < entries.length; index++) {
      const entry = entries[index];
      if (entry === undefined) continue;
      if (!isOutputText(entry)) {
        if (index < to) middle.push(entry);
        continue;
      }
      const start = index === from ? fromOffset : 0;
      const end = index === to ? toOffset : entry.text.length;
      if (end <= start) continue;
      const gone = entry.text.slice(start, end);
      omittedChars += gone.length;
      omittedLines += countLines(gone);
    }
    if (omittedChars === 0) return [...head, ...middle, ...tail];
    const marker: Entry = {
      kind: "pinned",
      text: `… ${describeOmitted(omittedChars, omittedLines)} of output omitted here; print less, or write large output to a file and read parts of it …\n`,
    };
    return [...head, marker, ...middle, ...tail];
  }
}

/**
 * Text entries joined (a stream runs on, and so does a `joined` entry; anything else starts on its
 * own line), images as parts.
 */
function render(entries: readonly Entry[]): ContentPart[] {
  const parts: ContentPart[] = [];
  let text = "";
  let previous: Entry["kind"] | undefined;
  const flush = () => {
    const plain = plainText(text).replace(/\n$/, "");
    if (text !== "") parts.push({ type: "text", text: plain });
    text = "";
    previous = undefined;
  };
  for (const entry of entries) {
    if (entry.kind === "image") {
      flush();
      parts.push(imagePart(entry.data, entry.mimeType));
      continue;
    }
    const runsOn =
      isOutputText(entry) && (entry.joined === true || (previous === "stream" && entry.kind === "stream"));
    if (!runsOn && text !== "" && !text.endsWith("\n")) text += "\n";
    text += entry.text;
    previous = entry.kind;
  }
  flush();
  return parts;
}

/** Most characters of the error's name and value given as the result's error message. */
export const errorMessageChars = 2_000;

/**
 * `ValueError: …` cut after {@link errorMessageChars} characters (never inside a surrogate
 * pair), saying how many were left out: the whole value is in the traceback the output shows.
 */
function errorLine(text: string): string {
  if (text.length <= errorMessageChars) return text;
  const shown = headOf(text, errorMessageChars);
  return `${shown}… (${text.length - shown.length} more characters; the output's traceback has the error)`;
}
