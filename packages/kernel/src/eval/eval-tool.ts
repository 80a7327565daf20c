import {
  defineTool,
  errorMessage,
  rejectOnAbort,
  ToolsError,
  type ToolContext,
  type ToolResult,
} from "@tools/registry";
import { z } from "zod";
import type { KernelClient, KernelLanguage } from "../client/kernel-client.js";
import type { ExecuteOutcome } from "../client/kernel-output.js";
import { kernelFactoryKey } from "../factory/kernel-factory.js";
import { kernelPool, type KernelPool } from "../factory/kernel-pool.js";
import { answerBridgeCall, isBridgeCall } from "./bridge.js";
import { describeBudget, InactivityTimer, RunningTimeLimit } from "./inactivity-timer.js";
import { OutputCollector } from "./output-collector.js";
import { interruptedBeforeStart } from "../launch/python-setup.js";
import { assertSendablePython } from "./python-source-check.js";
import { rewriteCell } from "./rewrite-cell.js";

const descriptionExample = "load sales CSV and plot monthly totals";

/** Words in a label, as the 5–10 word rule counts them. */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

const input = z.object({
  code: z.string().describe("The cell. Its last expression is echoed, as in a notebook."),
  // Checked by the schema, so the registry refuses a bad label before the approval card is shown.
  description: z
    .string()
    .refine((text) => wordCount(text) >= 5 && wordCount(text) <= 10, {
      error: (issue) => {
        const text = typeof issue.input === "string" ? issue.input.trim() : "";
        const words = wordCount(text);
        return `must be 5–10 words saying what the cell does (got ${words}${words > 0 ? `: '${text}'` : ""}), e.g. '${descriptionExample}'. The cell was not run.`;
      },
    })
    .describe(`5–10 words saying what the cell does; the transcript's label, e.g. '${descriptionExample}'.`),
  language: z.enum(["python", "javascript"]).default("python").describe("python (default) or javascript"),
  reset: z.boolean().default(false).describe("Discard the interpreter and start a clean one before running."),
});

type Ending =
  | { readonly kind: "done"; readonly outcome: ExecuteOutcome }
  | { readonly kind: "died"; readonly error: unknown }
  | { readonly kind: "stalled" }
  | { readonly kind: "overtime" }
  | { readonly kind: "unacknowledged" }
  | { readonly kind: "cancelled" };

/** Why a cell was interrupted: the endings that stop it rather than end it. */
type InterruptReason = Exclude<Ending["kind"], "done" | "died">;

/**
 * `eval`: runs a Python or JavaScript cell in the run's persistent kernel. Output in order:
 * streams, display() calls, the last expression's echo, errors with their traceback; figures come
 * back as PNG image parts. `tool(name, args)` inside the cell re-enters the registry (origin
 * "cell"). A cell with no output for the inactivity budget, or running past its time limit in all
 * (both paused during bridged calls), is interrupted, and its kernel is killed if it does not stop.
 */
export const evalTool = defineTool({
  name: "eval",
  tier: "exec",
  parallelSafe: false,
  requires: [kernelFactoryKey],
  description: [
    "Run Python (default) or JavaScript in a persistent interpreter: variables, imports and loaded data stay between calls.",
    "The last expression is echoed as in a notebook; display() works, pandas DataFrames come back as tables and matplotlib figures as images.",
    "Python: %pip, %cd, !cmd, %%bash and %%timeit work; JavaScript: %cd, %timeit, %%bash and %%timeit (a leading ! is JavaScript's not).",
    "Call the harness's tools from a cell with tool(name, args); it returns the tool's text or raises. In JavaScript await it, and several calls run at once (await Promise.all([...])); Python runs calls one at a time, also from threads.",
    "A cell with no output for 5 minutes, or running 30 minutes in all, is interrupted. reset: true starts a clean interpreter.",
    'Example: {"code": "import pandas as pd\\ndf = pd.read_csv(\'sales.csv\')\\ndf.describe()", "description": "load sales data and summarise its columns"}',
  ].join(" "),
  input,
  summarize: (args) => `${args.language} cell: ${args.description}`,
  async execute(args, context): Promise<ToolResult> {
    const factory = context.run.require(kernelFactoryKey);
    const pool = kernelPool(context.run, factory);
    const language: KernelLanguage = args.language;
    if (language === "python") assertSendablePython(args.code);
    context.progress(`${args.reset ? "starting a clean" : "connecting to the"} ${language} kernel…`);
    // A cancel does not wait out a cold start: the start goes on in the pool, for the next cell.
    const { kernel, note } = await rejectOnAbort(pool.get(language, { reset: args.reset }), context.signal);
    const collector = new OutputCollector(factory.settings.limits);
    if (note !== undefined) collector.note(note);
    if (args.reset) collector.note(`(a clean ${language} kernel was started)`);
    try {
      return await runCell(kernel, rewriteCell(args.code, language), collector, context, pool, language);
    } finally {
      pool.warm(language);
    }
  },
});

async function runCell(
  kernel: KernelClient,
  code: string,
  collector: OutputCollector,
  context: ToolContext,
  pool: KernelPool,
  language: KernelLanguage,
): Promise<ToolResult> {
  const settings = context.run.require(kernelFactoryKey).settings;
  const changedFiles = new Set<string>();
  const bridgeAbort = new AbortController();
  let signalStall: (kind: "stalled" | "overtime" | "unacknowledged") => void = () => undefined;
  const stalled = new Promise<Ending>((resolve) => {
    signalStall = (kind) => resolve({ kind });
  });
  const timer = new InactivityTimer(settings.inactivityMs, () => signalStall("stalled"));
  const limit = new RunningTimeLimit(settings.cellTimeLimitMs, () => signalStall("overtime"));
  // An idle kernel says it is busy with a cell within milliseconds: one silent for this long is
  // hung or stopped (SIGSTOP), and the cell never started.
  const acknowledged = new InactivityTimer(settings.acknowledgeMs, () => signalStall("unacknowledged"));
  let onAbort: () => void = () => undefined;
  const cancelled = new Promise<Ending>((resolve) => {
    onAbort = () => resolve({ kind: "cancelled" });
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener("abort", onAbort, { once: true });
  });
  const execution: Promise<Ending> = kernel
    .execute(code, {
      onOutput: (output) => {
        collector.add(output);
        if (output.type === "stream") context.progress(output.text.slice(-200));
      },
      onActivity: () => {
        acknowledged.stop();
        timer.touch();
      },
      onInputRequest: async (prompt) => {
        if (!isBridgeCall(prompt)) {
          collector.note(
            "(the cell asked for interactive input; nobody can type an answer, so it got an empty string)",
          );
          return "";
        }
        timer.pause();
        limit.pause();
        try {
          return await answerBridgeCall(prompt, context, bridgeAbort.signal, changedFiles);
        } finally {
          timer.resume();
          limit.resume();
        }
      },
    })
    .then(
      (outcome): Ending => ({ kind: "done", outcome }),
      (error: unknown): Ending => ({ kind: "died", error }),
    );

  let ending = await Promise.race([execution, stalled, cancelled]);
  timer.stop();
  limit.stop();
  acknowledged.stop();
  context.signal.removeEventListener("abort", onAbort);
  let interruptNote: string | undefined;
  if (ending.kind === "cancelled" && runEnded(context.signal)) {
    // The run's end takes its kernels down with it: nothing to interrupt, and the cell is not to
    // blame. What it printed until then is kept, as for a cancel.
    bridgeAbort.abort();
    return failure(
      collector,
      "RUN_DISPOSED",
      `eval was stopped: the run has ended, and its ${language} kernel with it`,
      changedFiles,
    );
  }
  if (
    ending.kind === "stalled" ||
    ending.kind === "overtime" ||
    ending.kind === "unacknowledged" ||
    ending.kind === "cancelled"
  ) {
    const why = ending.kind;
    bridgeAbort.abort();
    const interrupt = kernel.interrupt();
    const grace = new Promise<"grace">((resolve) =>
      setTimeout(() => resolve("grace"), settings.interruptGraceMs).unref(),
    );
    const after = await Promise.race([execution, grace]);
    const budget = describeBudget(settings.inactivityMs);
    const reason = {
      stalled: `the cell produced no output for ${budget}`,
      overtime: `the cell ran past its time limit of ${describeBudget(settings.cellTimeLimitMs)} in all (time in tool() calls not counted)`,
      unacknowledged: `the ${language} kernel did not start the cell within ${describeBudget(settings.acknowledgeMs)} (it sent no busy status: it is hung or stopped)`,
      cancelled: "the call was cancelled",
    }[why];
    if (after !== "grace" && after.kind === "died" && kernel.exited !== undefined) {
      // It stopped, by dying (its own handler exited, a crash): nothing killed it.
      pool.discard(language);
      interruptNote = `${reason}, and the ${language} kernel ${kernel.exited} once interrupted: ${lostState(why)}`;
    } else if (after === "grace" || after.kind === "died") {
      pool.discard(language);
      interruptNote = killedNote(why, reason, language, interrupt.sent, settings.interruptGraceMs);
    } else {
      ending = after;
      // A cancel that lands after the cell's last statement, or a cell that ignores SIGINT, leaves
      // it to run to its end: not "interrupted", or the caller runs it again and it has run twice.
      // A cell whose code showed the interrupt and went on (%%time, %%capture) ends ok but did not.
      const interruptShown = collector.error?.startsWith("KeyboardInterrupt") ?? false;
      const ranToEnd =
        why === "cancelled" && after.kind === "done" && after.outcome.status === "ok" && !interruptShown;
      // One that landed while the kernel prepared the cell is raised before its first statement.
      const noneRan = collector.error === `KeyboardInterrupt: ${interruptedBeforeStart}`;
      // One that reached a statement, which caught it (except KeyboardInterrupt, or CancelledError
      // around an await) and went on: the cell was cut short where it caught it, not untouched.
      const caught = ranToEnd && after.outcome.interruptDelivered === true;
      // One that the cell's own SIGINT handler took: the cell went on, or it ended with an error
      // (its handler raised one, or what followed did).
      const ownHandler =
        why === "cancelled" &&
        after.kind === "done" &&
        after.outcome.interruptDelivered === true &&
        after.outcome.interruptOwnHandler === true;
      const tookIt = `${reason} and the interrupt reached the cell, whose own SIGINT handler took it`;
      interruptNote = ownHandler
        ? ranToEnd
          ? `${tookIt}; the cell went on to its end; the kernel's state is kept.`
          : `${tookIt}, and the cell ended with an error; the kernel's state is kept.`
        : caught
          ? `${reason} and the interrupt reached the cell, which caught it and went on to its end; the kernel's state is kept.`
          : ranToEnd
            ? `${reason}, but the cell ran to its end (the interrupt did not reach it); the kernel's state is kept.`
            : noneRan && why === "cancelled"
              ? `${reason} before the cell's code started, so none of it ran; the kernel's state is kept.`
              : {
                  stalled: `${reason} and was interrupted; the kernel's state is kept. Print progress in long loops, or split the work.`,
                  overtime: `${reason} and was interrupted; the kernel's state is kept. Split the work into shorter cells, or run it in the background writing to a file.`,
                  unacknowledged: `${reason}; it answered once interrupted, and its state is kept. Whether any of the cell ran is unknown: check, then run it again.`,
                  cancelled: `${reason} and the cell was interrupted; the kernel's state is kept.`,
                }[why];
    }
    // A cancelled call's result keeps the output so far (and the files its bridged calls changed),
    // as a timed-out one does: the registry returns what the tool returns, also once cancelled.
    if (why === "cancelled") {
      return failure(collector, "CANCELLED", `eval was cancelled: ${interruptNote}`, changedFiles);
    }
    return failure(collector, "KERNEL_TIMEOUT", interruptNote, changedFiles);
  }
  bridgeAbort.abort();
  if (ending.kind === "died") {
    // A kernel that exited stays in the pool until the next call, which says its state was lost;
    // one that went idle without answering is alive and well, and keeps its state.
    const unanswered = ToolsError.isInstance(ending.error) && ending.error.code === "KERNEL_NO_REPLY";
    if (kernel.exited === undefined && !unanswered) pool.discard(language);
    return failure(
      collector,
      ToolsError.isInstance(ending.error) ? String(ending.error.code) : "KERNEL_DIED",
      errorMessage(ending.error),
      changedFiles,
    );
  }
  if (ending.outcome.status === "error" || collector.error !== undefined) {
    // The traceback is in the output already; without one, the message says what happened.
    return failure(
      collector,
      "CELL_ERROR",
      collector.error ?? "the cell raised an error",
      changedFiles,
      collector.error === undefined,
    );
  }
  if (ending.outcome.status === "aborted") {
    return failure(
      collector,
      "CELL_ABORTED",
      "the kernel aborted the cell (an earlier request failed); run it again",
      changedFiles,
    );
  }
  const parts = collector.parts();
  return {
    content: parts.length > 0 ? parts : [{ type: "text", text: "(no output)" }],
    isError: false,
    changedFiles: [...changedFiles],
  };
}

/** What a result says was lost with a kernel that ended after a cancel or a timeout. */
function lostState(why: InterruptReason): string {
  return why === "cancelled"
    ? "its state is lost."
    : "variables and imports are lost. The next call starts a fresh kernel.";
}

/**
 * What a result says when the kernel was killed after `reason` (an interrupted cell did not stop
 * within the grace period). `sent`: whether the interrupt went at all; it goes once the kernel has
 * started the cell, so a kernel that never did was killed without one.
 */
function killedNote(
  why: InterruptReason,
  reason: string,
  language: KernelLanguage,
  sent: boolean,
  graceMs: number,
): string {
  const lost = lostState(why);
  if (!sent) {
    const noInterrupt = "(no interrupt was sent: one goes only to a cell that has started)";
    const grace = `the ${describeBudget(graceMs)} grace period`;
    return why === "unacknowledged"
      ? `${reason}, nor within ${grace} after, so it was killed ${noInterrupt}: ${lost}`
      : `${reason}, and the ${language} kernel did not start the cell within ${grace}, so it was killed ${noInterrupt}: ${lost}`;
  }
  if (why === "cancelled")
    return `${reason} and the cell did not stop when interrupted, so its ${language} kernel was killed: ${lost}`;
  if (why === "unacknowledged")
    return `${reason}; it started the cell late, then did not stop when interrupted, so it was killed: ${lost}`;
  return `${reason} and did not stop when interrupted, so its ${language} kernel was killed: ${lost}`;
}

/** An error result that keeps the cell's output before the failure. */
function failure(
  collector: OutputCollector,
  code: string,
  message: string,
  changedFiles: Set<string>,
  appendMessage = true,
): ToolResult {
  if (appendMessage) collector.note(message);
  const parts = collector.parts();
  return {
    content: parts.length > 0 ? parts : [{ type: "text", text: message }],
    isError: true,
    changedFiles: [...changedFiles],
    error: { code, message },
  };
}

/** True when the call was stopped because its run ended (not cancelled by its caller). */
function runEnded(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return ToolsError.isInstance(reason) && reason.code === "RUN_DISPOSED";
}
