/** A mime bundle as Jupyter sends it: mime type → data (base64 for images). */
export type MimeBundle = Readonly<Record<string, unknown>>;

/** One output of a cell, in arrival order. */
export type KernelOutput =
  | { readonly type: "stream"; readonly name: "stdout" | "stderr"; readonly text: string }
  /** `display()` calls and figures (`display_data`), or the last expression (`execute_result`). */
  | {
      readonly type: "display";
      readonly kind: "display" | "result";
      readonly data: MimeBundle;
      /**
       * Set on the start of a longer text display that the kernel cut to bound what it sends (the
       * JavaScript kernel, past the output limits): its text is as cut, possibly mid-line, with no
       * line break to add; the rest follows in the next display, or is counted by an `omitted`.
       * Read from our own JavaScript kernel only (see {@link toKernelOutput}).
       */
      readonly cut?: true;
    }
  | {
      readonly type: "error";
      readonly ename: string;
      readonly evalue: string;
      readonly traceback: readonly string[];
    }
  | { readonly type: "clear" }
  /**
   * Output the kernel left out at this point to bound what it sends (the JavaScript kernel, past
   * the output limits): its characters and line breaks, counted with what the result leaves out;
   * `images`: how many images over the result's image limits it did not send (the line the result
   * shows for each went as text). Our own JavaScript kernel's only (see {@link toKernelOutput}).
   */
  | {
      readonly type: "omitted";
      readonly chars: number;
      readonly lines: number;
      readonly images?: number;
      /** Of `images`, those over the size limit (the rest are over the count). */
      readonly largeImages?: number;
    }
  /**
   * Output that came for an earlier cell after it had finished (a thread's print, a timer's
   * console.log, an unhandled rejection), in order, bounded; `left`: how many outputs, and how many
   * characters of them, were left out. It comes first to the next cell run on the kernel.
   */
  | {
      readonly type: "late";
      readonly outputs: readonly KernelOutput[];
      readonly left: { readonly outputs: number; readonly chars: number };
    };

/** How a cell ended, as the kernel's execute_reply says. */
export interface ExecuteOutcome {
  readonly status: "ok" | "error" | "aborted";
  readonly executionCount?: number;
  /**
   * True when the kernel says an interrupt reached one of the cell's statements (raised there, or
   * cancelled its await): with an ok status, the cell caught it and went on to its end.
   */
  readonly interruptDelivered?: boolean;
  /** True when the interrupt that reached the cell went to a SIGINT handler the cell set itself. */
  readonly interruptOwnHandler?: boolean;
}

/** What a cell's caller handles while it runs. */
export interface ExecuteHandlers {
  /** Each output as it arrives. */
  onOutput?: (output: KernelOutput) => void;
  /**
   * An input_request of the cell (the bridge rides on it); resolves with the reply value. A reply
   * for a cell that was interrupted meanwhile is dropped. A request that comes after its cell
   * finished (a thread's, a timer's) never reaches it: the client answers it with a bridge error
   * at once (see lateInputReply).
   */
  onInputRequest?: (prompt: string, password: boolean) => Promise<string>;
  /** Any message about the cell arrived (the inactivity budget resets on it). */
  onActivity?: () => void;
}

/** The display metadata key that marks a display as cut (KernelOutput's `cut`); our own, not Jupyter's. */
export const cutMetadata = "tools/cut";

/** The stream content key of our Python kernel's runs of stdout and stderr in one message. */
export const streamRunsKey = "tools/runs";

/**
 * Turns an iopub message into its outputs (none for status and bookkeeping messages). A stream
 * message of our Python kernel's ordering of prints and stderr carries runs of both streams in
 * the order written (`tools/runs`: `[name, text]` pairs, see pythonSetupCode): one output each.
 * A cell that sends one itself only names its own text's streams.
 */
export function toKernelOutputs(
  msgType: string,
  content: Record<string, unknown>,
  ownKernel: boolean,
): KernelOutput[] {
  const runs = msgType === "stream" ? streamRuns(content[streamRunsKey]) : undefined;
  if (runs !== undefined) return runs;
  const output = toKernelOutput(msgType, content, ownKernel);
  return output === undefined ? [] : [output];
}

function streamRuns(value: unknown): KernelOutput[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const outputs: KernelOutput[] = [];
  for (const run of value) {
    if (!Array.isArray(run) || typeof run[1] !== "string") return undefined;
    outputs.push({ type: "stream", name: run[0] === "stderr" ? "stderr" : "stdout", text: run[1] });
  }
  return outputs;
}

/**
 * Turns an iopub message into an output, or undefined for status and bookkeeping messages. Our
 * own marks — the `tools/cut` display metadata and the `output_omitted` message — are read only
 * when `ownKernel` (our JavaScript kernel, whose executor sets them): a Python cell can set any
 * display metadata (`display(x, metadata={…})`) and publish any message through its kernel's
 * session, and must not make the result join its displays or count output it never left out.
 */
export function toKernelOutput(
  msgType: string,
  content: Record<string, unknown>,
  ownKernel: boolean,
): KernelOutput | undefined {
  switch (msgType) {
    case "stream":
      return {
        type: "stream",
        name: content.name === "stderr" ? "stderr" : "stdout",
        text: typeof content.text === "string" ? content.text : "",
      };
    case "display_data":
    case "update_display_data":
    case "execute_result":
      return {
        type: "display",
        kind: msgType === "execute_result" ? "result" : "display",
        data: isRecord(content.data) ? content.data : {},
        ...(ownKernel && isRecord(content.metadata) && content.metadata[cutMetadata] === true
          ? { cut: true }
          : {}),
      };
    case "error":
      return {
        type: "error",
        ename: typeof content.ename === "string" ? content.ename : "Error",
        evalue: typeof content.evalue === "string" ? content.evalue : "",
        traceback: Array.isArray(content.traceback) ? content.traceback.map(String) : [],
      };
    case "clear_output":
      return { type: "clear" };
    case "output_omitted": {
      if (!ownKernel) return undefined;
      const count = (value: unknown) => (typeof value === "number" && value > 0 ? value : 0);
      const images = count(content.images);
      const largeImages = Math.min(images, count(content.largeImages));
      return {
        type: "omitted",
        chars: count(content.chars),
        lines: count(content.lines),
        ...(images > 0 ? { images } : {}),
        ...(largeImages > 0 ? { largeImages } : {}),
      };
    }
    default:
      return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
