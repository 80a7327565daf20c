import type { KernelOutput } from "./kernel-output.js";

/** Output a finished cell sent, as the next cell gets it (see {@link LateOutput}). */
export type LateOutputs = Extract<KernelOutput, { type: "late" }>;

/** Most characters of late output kept between two cells, by default. */
export const defaultLateOutputChars = 10_000;

/** Most late outputs kept between two cells, by default. */
export const defaultLateOutputCount = 500;

/**
 * Output that arrives for a cell after it finished (a thread's print, a timer's console.log, an
 * unhandled rejection), kept for the next cell in bounded memory: outputs in order up to
 * `maxChars` characters (text as sent, an image's base64, a bundle's JSON; every output weighs at
 * least 1) and `maxOutputs` outputs; a stream over what is left is cut there, and what does not
 * fit after that is only counted. The JavaScript kernel's `omitted` is counted with what is left
 * out, not kept; a `clear` drops what came before it, kept or counted, as the result would.
 */
export class LateOutput {
  private outputs: KernelOutput[] = [];
  private chars = 0;
  private leftOutputs = 0;
  private leftChars = 0;

  constructor(
    private readonly maxChars = defaultLateOutputChars,
    private readonly maxOutputs = defaultLateOutputCount,
  ) {}

  /** True when nothing is kept or counted. */
  get empty(): boolean {
    return this.outputs.length === 0 && this.leftOutputs === 0;
  }

  add(output: KernelOutput): void {
    if (output.type === "late") {
      for (const each of output.outputs) this.add(each);
      this.leftOutputs += output.left.outputs;
      this.leftChars += output.left.chars;
      return;
    }
    if (output.type === "omitted") {
      // The kernel's count of text it did not send (and of images): one output left out here.
      this.leftOutputs += (output.chars > 0 ? 1 : 0) + (output.images ?? 0);
      this.leftChars += output.chars;
      return;
    }
    if (output.type === "clear") {
      // clear_output(): what came before is not shown, so it is not kept (a thread clearing and
      // printing every 50 ms keeps its last print, not every clear).
      this.reset();
      return;
    }
    const size = weight(output);
    const room = Math.min(this.maxChars - this.chars, this.outputs.length < this.maxOutputs ? Infinity : 0);
    if (size <= room) {
      this.outputs.push(output);
      this.chars += size;
    } else if (output.type === "stream" && room > 0) {
      this.outputs.push({ ...output, text: output.text.slice(0, room) });
      this.chars += room;
      this.leftOutputs++;
      this.leftChars += size - room;
    } else {
      this.leftOutputs++;
      this.leftChars += size;
    }
  }

  /** What is kept, as one output; undefined when there is none. */
  current(): LateOutputs | undefined {
    if (this.empty) return undefined;
    return {
      type: "late",
      outputs: [...this.outputs],
      left: { outputs: this.leftOutputs, chars: this.leftChars },
    };
  }

  /** {@link current}, and forgets it. */
  take(): LateOutputs | undefined {
    const late = this.current();
    this.reset();
    return late;
  }

  private reset(): void {
    this.outputs = [];
    this.chars = 0;
    this.leftOutputs = 0;
    this.leftChars = 0;
  }
}

/** The characters an output holds, at least 1 (an empty one is still one more kept). */
function weight(output: KernelOutput): number {
  switch (output.type) {
    case "stream":
      return Math.max(1, output.text.length);
    case "display":
      return JSON.stringify(output.data).length;
    case "error":
      return Math.max(1, output.evalue.length + output.traceback.reduce((sum, line) => sum + line.length, 0));
    default:
      return 1;
  }
}
