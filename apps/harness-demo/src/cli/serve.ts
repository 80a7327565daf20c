import { createInterface } from "node:readline";
import type { ApprovalPolicy } from "@tools/registry";
import { vibeListKey, type WorkerBackend } from "@tools/vibe";
import { createDemoRun } from "../create-demo-run.js";
import { CallsInFlight, handleCancelLine } from "./calls-in-flight.js";
import { holdSignals } from "./hold-signals.js";
import { JsonLinesOperatorPort, type CardEvent, type DetachReason } from "./json-lines-operator.js";
import { errorResponse, parseRequestLine, resultResponse, type JsonLinesResponse } from "./json-lines.js";
import { followWorkers, workerEventLine, type WorkerEventLine } from "./worker-notices.js";

/** Who answers cards in `serve`: nobody (cards fail closed) or the peer over JSON lines. */
export type ServeOperator = "none" | "jsonl";

/** Options of {@link serve}. */
export interface ServeOptions {
  readonly workingDirectory: string;
  readonly approval: ApprovalPolicy;
  readonly conversationId?: string;
  /** `jsonl`: cards go out as lines and are answered by lines; default `none` (fail closed). */
  readonly operator?: ServeOperator;
  /** Turns vibe mode on. */
  readonly vibeBackend?: WorkerBackend;
  /** The Python interpreter of `eval` (default the working directory's `.venv`, then PATH). */
  readonly pythonPath?: string;
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
}

/**
 * The JSON-lines mode: one run for the whole session, one request per input line, one response
 * per output line as each call completes. Resolves when the session is over (end of input, or
 * SIGTERM/SIGINT), after the run is disposed. Nothing but responses is written to `output`.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let outputOpen = true;
  const send = (response: JsonLinesResponse | CardEvent | WorkerEventLine) => {
    if (outputOpen) output.write(`${JSON.stringify(response)}\n`);
  };
  const operator = options.operator === "jsonl" ? new JsonLinesOperatorPort(send) : undefined;
  const demo = createDemoRun({
    workingDirectory: options.workingDirectory,
    approval: options.approval,
    conversationId: options.conversationId,
    ...(operator === undefined ? {} : { questionPort: operator }),
    ...(options.vibeBackend === undefined ? {} : { vibeBackend: options.vibeBackend }),
    ...(options.pythonPath === undefined ? {} : { pythonPath: options.pythonPath }),
  });
  process.stderr.write(
    `harness-demo serve: run ${demo.run.id} in ${demo.run.workingDirectory} (approval ${options.approval}, operator ${options.operator ?? "none"}${options.vibeBackend ? `, vibe on ${options.vibeBackend.description}` : ""}); one JSON request per line\n`,
  );
  // The operator sees the background workers: started, progress (coalesced), how each ended.
  const list = demo.run.get(vibeListKey);
  const stopFollowing =
    operator && list ? followWorkers(list, (notice) => send(workerEventLine(notice))) : () => undefined;
  const pending = new Set<Promise<void>>();
  const calls = new CallsInFlight();
  const handle = (line: string) => {
    if (line.trim() === "") return;
    const reply = cardReply(line);
    if (reply !== undefined) {
      if (operator) operator.handleLine(reply);
      else
        send({
          event: "card_error",
          card_id: typeof reply["card_id"] === "string" ? reply["card_id"] : null,
          error: "no operator is attached: start serve with --operator jsonl to answer cards",
        });
      return;
    }
    if (handleCancelLine(line, calls, send)) return;
    const parsed = parseRequestLine(line);
    if (!parsed.ok) {
      send(errorResponse(parsed.id, parsed.error));
      return;
    }
    const { id, surface, tool, args } = parsed.request;
    const call = calls
      .run(id, (signal) =>
        demo.registry
          .invoke(demo.run, { tool, args, surface, signal })
          .then((result) => resultResponse(id, result))
          .catch((error: unknown) =>
            errorResponse(id, error instanceof Error ? error.message : String(error)),
          ),
      )
      .then(send)
      .finally(() => pending.delete(call));
    pending.add(call);
  };

  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  lines.on("line", handle);
  let stop: (reason: DetachReason) => void = () => undefined;
  const stopped = new Promise<DetachReason>((resolve) => {
    stop = resolve;
  });
  // Held until the run has ended: a second Ctrl+C while its processes get their grace would kill
  // serve before their SIGKILL, leaving one that ignores SIGTERM running.
  const releaseSignals = holdSignals("harness-demo serve", stop);
  // The peer closed our stdout (EPIPE): nobody can read answers any more, so end like a signal.
  output.on("error", () => {
    outputOpen = false;
    stop("output closed");
  });
  const inputEnded = new Promise<DetachReason>((resolve) =>
    lines.once("close", () => resolve("end of input")),
  );
  let reason = await Promise.race([inputEnded, stopped]);
  lines.close();
  // Nobody can answer any more: open cards fail closed, so the calls waiting on them answer.
  // Why it let go goes into the open cards' card_closed (cause "input_ended" or "shutdown").
  operator?.detach(reason);
  if (reason === "end of input") {
    // Observers do not hold the shutdown: a vibe_wait in flight answers now that the run is
    // ending (its worker ends with the run), instead of after up to 600 s.
    demo.run.get(vibeListKey)?.endWaits("the run is ending (end of input)");
    // The calls already made still answer, unless a signal cuts the wait short, or the peer that
    // started serve has died: nobody is left to read the answers (a cell printing forever would
    // otherwise keep serve and its kernel alive, orphaned, until it is killed).
    const parent = parentGone();
    try {
      reason = await Promise.race([Promise.all(pending).then(() => reason), stopped, parent.gone]);
    } finally {
      parent.stop();
    }
  }
  const report = await demo.dispose();
  stopFollowing();
  // Calls still running were ended with the run; their (refusal) answers go out before exit.
  await Promise.all(pending);
  for (const failure of report.failed)
    process.stderr.write(`harness-demo serve: cleanup failed: ${failure}\n`);
  process.stderr.write(`harness-demo serve: ${reason}; run ended\n`);
  releaseSignals();
}

/** The line's object when it is a card reply (`card_id` and no `tool`), else undefined. */
function cardReply(line: string): Record<string, unknown> | undefined {
  if (!line.includes("card_id")) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    return "card_id" in record && !("tool" in record) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** How often serve looks whether its parent is still there, once its input has ended. */
const parentCheckMs = 500;

/**
 * Settles with "parent gone" once the process that started serve has exited (serve is then
 * reparented: its parent pid changes). Checked every {@link parentCheckMs}; `stop` ends the checks.
 */
function parentGone(): { gone: Promise<DetachReason>; stop: () => void } {
  const parent = process.ppid;
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<DetachReason>((resolve) => {
    timer = setInterval(() => {
      if (process.ppid !== parent) resolve("parent gone");
    }, parentCheckMs);
    timer.unref();
  });
  return { gone, stop: () => clearInterval(timer) };
}
