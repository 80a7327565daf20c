import { countLines, headLength } from "../eval/cut-text.js";
import { bundleImage, ImageLimit, overImageLimitText } from "../eval/image-limit.js";
import type { OutputLimits } from "../eval/output-limits.js";
import { bundleText, CarriageReturns } from "../eval/output-text.js";
import type { FromExecutor } from "./executor-protocol.js";

/** The least time between two `activity` messages, in milliseconds. */
const activityMs = 1000;

type Stream = Extract<FromExecutor, { type: "stream" }>;
type Display = Extract<FromExecutor, { type: "display" }>;

/** Hands a message to the channel; `sent` is called once it has been written out. */
export type PostMessage = (message: FromExecutor, sent: () => void) => void;

/**
 * Text output held past the head: its message, and its text as the result weighs it (a display's
 * on lines of its own) with that text's line breaks; `whole` while the text is all of the message's,
 * `rest` when its start went out in the head.
 */
interface Held {
  readonly message: Stream | Display;
  text: string;
  lines: number;
  whole: boolean;
  readonly rest: boolean;
}

/**
 * The executor's output channel, bounded per cell as the result is (see OutputCollector), so that
 * the result shows what it would show had everything arrived: the same start, end and count. A
 * cell's text output (streams, and displays and echoes weighed as the result weighs them: their
 * text on lines of their own) goes out as it comes, joined per event-loop turn, up to `maxChars`
 * characters / `maxLines` lines. Output crossing that head is cut there as the result cuts it: the
 * part inside goes out (a display's as a `cut` display, which the result takes as is, also
 * mid-line) and the rest is held. Past the head only about the last `maxChars` / `maxLines` are
 * held, cut at the front as the result trims its own tail (a display's end goes out as plain text);
 * what falls out in between is counted and goes out as one `omitted` message before the rest,
 * which the result adds to its own count of what it left out. Held output goes out at the next turn
 * once all sent before has been written to the channel, and at once before any other message (an
 * image, an error, a bridged call, the end of the cell), so the order is kept and a long cell keeps
 * showing its latest output. A tight loop printing millions of lines thus holds at most the head
 * and one and a half times the limits, where every line used to wait in the channel's queue.
 *
 * A display cut in two goes out as two messages, the rest a plain `display` also when the first
 * part is the echo (`result`): a cell has one execute_result. Images are bounded as the result
 * bounds them (see ImageLimit): those it shows go out at once, a repeat of one not at all, and one
 * over the limits as the line the result shows in its place, weighed as text; the count of those
 * goes out with the next `omitted` message, for the result's note.
 */
export class OutputBudget {
  private readonly head = { chars: 0, lines: 0 };
  private headFull = false;
  /** Head output waiting for the next turn, and its characters. */
  private ready: (Stream | Display)[] = [];
  private readyChars = 0;
  /** Output past the head, trimmed at its front. */
  private tail: Held[] = [];
  private readonly tailSize = { chars: 0, lines: 0 };
  private readonly omitted = { chars: 0, lines: 0, images: 0, largeImages: 0 };
  private images: ImageLimit;
  /** Messages handed to the channel and not yet written. */
  private unsent = 0;
  private scheduled = false;
  /**
   * Carriage returns applied as the result applies them, before the text is weighed: a stream of
   * `\r` updates is its last line, not its first and last few thousand characters. The open line
   * goes out with the next other message, or when the cell ends; until then a change to it sends an
   * `activity` message (at most one each `activityMs`), so a cell writing `.` or `\r42%` without a
   * line break is not taken for silent by the inactivity budget.
   */
  private readonly overwrites: CarriageReturns;
  private openStream: Stream["name"] = "stdout";
  private lastActivity = -Infinity;

  /**
   * `defer` runs a callback at the next event-loop turn (setImmediate), `now` reads a clock in
   * milliseconds; tests pass their own.
   */
  constructor(
    private readonly limits: OutputLimits,
    private readonly post: PostMessage,
    private readonly defer: (callback: () => void) => void = setImmediate,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.images = new ImageLimit(limits);
    this.overwrites = new CarriageReturns(limits.maxChars);
  }

  /** Characters of output held and not yet handed to the channel. */
  get heldChars(): number {
    return this.readyChars + this.tailSize.chars + this.overwrites.held;
  }

  /** Starts a cell: what is still held goes out, and the cell gets the whole head budget. */
  startCell(): void {
    this.flush(true);
    this.head.chars = 0;
    this.head.lines = 0;
    this.headFull = false;
    this.images = new ImageLimit(this.limits);
  }

  /** Text the cell wrote to stdout or stderr. */
  stream(name: Stream["name"], text: string): void {
    if (text === "") return;
    if (name !== this.openStream) this.endLine();
    this.openStream = name;
    const done = this.overwrites.write(text);
    if (done !== "") this.take({ type: "stream", name, text: done }, done);
    else if (this.overwrites.held > 0) this.active();
  }

  /** Text held unsent changed: an `activity` message, unless one went out within `activityMs`. */
  private active(): void {
    const now = this.now();
    if (now - this.lastActivity < activityMs) return;
    this.lastActivity = now;
    // Not through send(): that would flush the open line, which the next write may overwrite.
    this.postOne({ type: "activity" });
  }

  /** The stream line held open for carriage returns is taken as it stands. */
  private endLine(): void {
    const open = this.overwrites.flush();
    if (open !== "") this.take({ type: "stream", name: this.openStream, text: open }, open);
  }

  /** A display() call or the echo. */
  display(message: Display): void {
    this.endLine();
    const image = bundleImage(message.data);
    if (image) {
      let bytes = new Uint8Array(0);
      const verdict = this.images.admit(image.encoded, () => {
        bytes = Buffer.from(image.encoded, "base64");
        return bytes;
      });
      if (verdict === "shown") this.send(message);
      if (verdict === "shown" || verdict === "repeat") return;
      // The result's line in its place, weighed and cut as any display's text.
      const text = overImageLimitText(image.mimeType, bytes, verdict, this.limits);
      this.omitted.images++;
      if (verdict === "too large") this.omitted.largeImages++;
      this.take({ type: "display", kind: message.kind, data: { "text/plain": text } }, text);
      return;
    }
    const text = bundleText(message.data);
    if (text === undefined) {
      this.send(message);
      return;
    }
    // Weighed and cut as the result weighs and cuts it: its text on lines of its own.
    this.take(message, text.endsWith("\n") ? text : `${text}\n`);
  }

  /** Any other message: the output held before it goes out first. */
  send(message: FromExecutor): void {
    this.flush(true);
    this.postOne(message);
  }

  /** Hands everything held to the channel now (the process is about to exit). */
  flushAll(): void {
    this.flush(true);
  }

  /** Text output: what fits in the head is ready to go, the rest is held. */
  private take(message: Stream | Display, text: string): void {
    let rest = text;
    if (!this.headFull) {
      const { maxChars, maxLines } = this.limits;
      const length = headLength(text, maxChars - this.head.chars, maxLines - this.head.lines);
      const piece = text.slice(0, length);
      if (piece !== "") {
        this.head.chars += piece.length;
        this.head.lines += countLines(piece);
        this.readyChars += piece.length;
        const last = this.ready.at(-1);
        if (message.type === "stream" && last?.type === "stream" && last.name === message.name)
          this.ready[this.ready.length - 1] = { ...last, text: last.text + piece };
        else this.ready.push(piece === text ? message : withText(message, piece, true));
      }
      rest = text.slice(length);
      if (rest !== "") this.headFull = true;
    }
    if (rest !== "") this.hold(message, rest, rest === text);
    this.schedule();
  }

  /** Holds `text`, all of `message`'s when `whole`, else its rest past the head. */
  private hold(message: Stream | Display, text: string, whole: boolean): void {
    const lines = countLines(text);
    const last = this.tail.at(-1);
    if (message.type === "stream" && last?.message.type === "stream" && last.message.name === message.name) {
      last.text += text;
      last.lines += lines;
      last.whole = false;
    } else {
      this.tail.push({ message, text, lines, whole, rest: !whole });
    }
    this.tailSize.chars += text.length;
    this.tailSize.lines += lines;
    this.trim();
  }

  /** Drops the front of the tail down to the limits, once it is half as much again over them. */
  private trim(): void {
    const { maxChars, maxLines } = this.limits;
    if (this.tailSize.chars <= maxChars * 1.5 && this.tailSize.lines <= maxLines * 1.5) return;
    while (this.tailSize.chars > maxChars || this.tailSize.lines > maxLines) {
      const first = this.tail[0];
      if (first === undefined) break;
      const overLines = Math.max(0, this.tailSize.lines - maxLines);
      // As the result trims its own tail: characters and whole lines, a display like a stream.
      const cut = Math.max(
        Math.min(first.text.length, this.tailSize.chars - maxChars),
        headLength(first.text, first.text.length, overLines),
      );
      let chars = first.text.length;
      let lines = first.lines;
      if (cut < first.text.length) {
        const gone = first.text.slice(0, cut);
        chars = gone.length;
        lines = countLines(gone);
        first.text = first.text.slice(cut);
        first.lines -= lines;
        first.whole = false;
      } else {
        this.tail.shift();
      }
      this.tailSize.chars -= chars;
      this.tailSize.lines -= lines;
      this.omitted.chars += chars;
      this.omitted.lines += lines;
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => {
      this.scheduled = false;
      this.flush(false);
    });
  }

  /** Sends the head output; the tail too when `force`d or when all sent before has been written. */
  private flush(force: boolean): void {
    if (force) this.endLine();
    const clear = force || this.unsent === 0;
    for (const message of this.ready.splice(0)) this.postOne(message);
    this.readyChars = 0;
    if (!clear) return;
    const { chars, lines, images, largeImages } = this.omitted;
    if (chars > 0 || images > 0) {
      this.postOne({
        type: "omitted",
        chars,
        lines,
        ...(images > 0 ? { images } : {}),
        ...(largeImages > 0 ? { largeImages } : {}),
      });
      this.omitted.chars = 0;
      this.omitted.lines = 0;
      this.omitted.images = 0;
      this.omitted.largeImages = 0;
    }
    for (const held of this.tail.splice(0)) {
      this.postOne(held.whole ? held.message : withText(held.message, held.text, false, held.rest));
    }
    this.tailSize.chars = 0;
    this.tailSize.lines = 0;
  }

  private postOne(message: FromExecutor): void {
    this.unsent++;
    this.post(message, () => {
      this.unsent--;
      if (this.unsent === 0 && this.tail.length > 0) this.schedule();
    });
  }
}

/**
 * `message` with `text` in place of its own: a display's as plain text, marked `cut` when it is the
 * start of a longer one (the result then takes it as is, and the next display runs on from it). The
 * `rest` of one whose start went out is a plain display: the start was the echo, if it was one.
 */
function withText(message: Stream | Display, text: string, start: boolean, rest = false): Stream | Display {
  if (message.type === "stream") return { ...message, text };
  return {
    type: "display",
    kind: rest ? "display" : message.kind,
    data: { "text/plain": text },
    ...(start ? { cut: true } : {}),
  };
}
