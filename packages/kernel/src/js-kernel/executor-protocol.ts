import { defaultOutputLimits, type OutputLimits } from "../eval/output-limits.js";

/** Messages from the kernel process to the executor child. */
export type ToExecutor =
  | { readonly type: "execute"; readonly id: number; readonly code: string }
  /** The answer to the bridged call `id` (several can be in flight). */
  | { readonly type: "input_reply"; readonly id: number; readonly value: string };

/** Messages from the executor child to the kernel process. */
export type FromExecutor =
  | { readonly type: "stream"; readonly name: "stdout" | "stderr"; readonly text: string }
  | {
      readonly type: "display";
      readonly kind: "display" | "result";
      readonly data: Record<string, string>;
      /** The start of a longer display, cut at the output limits (see KernelOutput). */
      readonly cut?: true;
    }
  /**
   * Output of the cell left out right here to bound the channel: its characters and line breaks;
   * `images`: images over the result's limits not sent (the result's line for each went as text).
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
   * The cell wrote text that is held, not sent (an open line kept for carriage returns): it is
   * active. At most one a second (see OutputBudget); the kernel turns it into a busy status.
   */
  | { readonly type: "activity" }
  | { readonly type: "error"; readonly ename: string; readonly evalue: string; readonly traceback: string[] }
  /** A bridged call `id` (the kernel sends it as an input_request and routes the reply back by id). */
  | { readonly type: "input"; readonly id: number; readonly prompt: string }
  /**
   * The cell `id` ended; `marked`: the streams (fd 1, fd 2) its cell-end mark (with `id`) was
   * written to after it (see MarkedStream), those still the pipes to the kernel; none when left out.
   */
  | {
      readonly type: "done";
      readonly id: number;
      readonly status: "ok" | "error";
      readonly marked?: readonly ("stdout" | "stderr")[];
    };

/**
 * The environment variable that gives the executor the output limits, as JSON
 * `{maxChars, maxLines, maxImages, maxImageBytes}` (any left out: the default).
 */
export const outputLimitsVariable = "TOOLS_KERNEL_OUTPUT_LIMITS";

/** The output limits given in {@link outputLimitsVariable}'s `value` (any missing or bad: the default). */
export function outputLimitsFrom(value: string | undefined): OutputLimits {
  const { maxChars, maxLines, maxImages, maxImageBytes } = defaultOutputLimits;
  try {
    const parsed = JSON.parse(value ?? "{}") as Record<string, unknown>;
    const limit = (given: unknown, fallback: number, least: number) =>
      typeof given === "number" && given >= least ? given : fallback;
    return {
      maxChars: limit(parsed.maxChars, maxChars, 1),
      maxLines: limit(parsed.maxLines, maxLines, 1),
      // No images at all is a limit too.
      maxImages: limit(parsed.maxImages, maxImages, 0),
      maxImageBytes: limit(parsed.maxImageBytes, maxImageBytes, 0),
    };
  } catch {
    return defaultOutputLimits;
  }
}
