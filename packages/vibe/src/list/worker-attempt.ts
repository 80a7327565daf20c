import { headOf, type Registry, type Run, type Surface } from "@tools/registry";
import type { WorkerBackend } from "../backends/worker-backend.js";
import { plainOutput } from "../internal/plain-output.js";
import { settleWithin } from "../internal/settle-within.js";
import type { WorkerEvents } from "./worker-events.js";
import type { WorkerRecord } from "./worker.js";
import { createWorkerToolbox } from "./worker-toolbox.js";

/** What an attempt needs from its list: where it runs, and whom to tell. */
export interface AttemptContext {
  readonly backend: WorkerBackend;
  readonly registry: Registry;
  readonly run: Run;
  readonly surface: Surface;
  readonly events: WorkerEvents;
}

/**
 * How an attempt ended: the backend's answer, or what it threw. The answer, as its progress lines,
 * is the plain text a terminal shows ({@link plainOutput}), whatever the backend: a model's answer
 * with escapes or bidi overrides in it reaches the lead and the operator as a CLI's output does.
 */
export type AttemptOutcome = ({ ok: true; answer: string } | { ok: false; error: unknown }) & {
  /** What a stopped attempt had done by then, as its backend said (see `WorkerTask.soFar`). */
  soFar?: string;
};

/**
 * Starts one attempt of `record` on the backend: marks it running, gives it a controller (also
 * aborted by the run) and a toolbox, and calls `settled` once the attempt ends — unless it was
 * detached by a {@link stopAttempt} that timed out, whose outcome is ignored.
 */
export function startAttempt(
  record: WorkerRecord,
  context: AttemptContext,
  settled: (controller: AbortController, outcome: AttemptOutcome) => void,
): void {
  const { run, events } = context;
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, run.signal]);
  record.status = "running";
  record.startedAt = Date.now();
  record.endedAt = undefined;
  record.attempts++;
  record.activity = undefined;
  record.soFar = undefined;
  record.readSoFar = undefined;
  record.awaitingApproval = 0;
  record.controller = controller;
  const task = {
    workerId: record.id,
    label: record.label,
    tier: record.tier,
    brief: record.brief,
    workingDirectory: run.workingDirectory,
    signal,
    toolbox: createWorkerToolbox(
      context.registry,
      run,
      context.surface,
      record.cap,
      signal,
      `worker ${record.id} "${record.label}"`,
      (waiting) => {
        if (record.controller !== controller) return;
        record.awaitingApproval = Math.max(0, record.awaitingApproval + (waiting ? 1 : -1));
        events.emit(record, "activity");
      },
    ),
    progress: (message: string) => {
      if (record.controller !== controller) return;
      record.activity = progressLine(message);
      // Coalesced: a CLI's output comes in hundreds of chunks a second (see WorkerEvents).
      events.progress(record);
    },
    soFar: (read: (stopped: boolean) => string) => {
      if (record.controller === controller) record.readSoFar = read;
    },
  };
  events.emit(record);
  const settle = (outcome: AttemptOutcome): void => {
    if (record.controller !== controller) return; // detached after a stop that timed out
    const read = record.readSoFar;
    record.controller = undefined;
    record.attempt = undefined;
    record.readSoFar = undefined;
    // Stopped: what it had done by then (its edits stay), for the killed worker's result.
    const soFar = signal.aborted && read ? readSoFar(read, true) : "";
    settled(controller, soFar ? { ...outcome, soFar } : outcome);
  };
  record.attempt = Promise.resolve()
    .then(() => context.backend.perform(task))
    .then(
      (answer) => settle({ ok: true, answer: plainOutput(String(answer)) }),
      (error: unknown) => settle({ ok: false, error }),
    );
}

/**
 * Aborts the running attempt and waits (at most `timeoutMs`) for it to stop and settle. False when
 * it did not stop in time: it is then detached, and its outcome ignored. True when nothing runs.
 */
export async function stopAttempt(record: WorkerRecord, reason: Error, timeoutMs: number): Promise<boolean> {
  const controller = record.controller;
  const attempt = record.attempt;
  if (!controller || !attempt) return true;
  controller.abort(reason);
  const stopped = await settleWithin(attempt, timeoutMs);
  if (!stopped && record.controller === controller) {
    record.controller = undefined;
    record.attempt = undefined;
    record.readSoFar = undefined;
  }
  return stopped;
}

/** Most characters of a worker's progress line (a command worker's is cut to it already). */
const progressMaxChars = 200;

/**
 * A backend's progress message as the one line vibe_list and vibe_wait show: plain text, its lines
 * joined by spaces, {@link progressMaxChars} at most. A model backend's names the tool the model
 * called, whatever the model made up (100 KB over lines read as other workers' lines in vibe_list).
 */
function progressLine(message: unknown): string {
  // Each run of white space with a line break in it becomes one space. Matched as whole runs:
  // /\s*\n\s*/ tried each space of a long run without one over the rest of it (a tool name of
  // 50 000 spaces held the event loop for seconds).
  const line = plainOutput(String(message)).replace(/\s+/g, (run) => (run.includes("\n") ? " " : run));
  return line.length > progressMaxChars ? `${headOf(line, progressMaxChars - 1)}…` : line;
}

/**
 * What an attempt has done so far (or had, once `stopped`), as its backend's reader says: plain
 * text, "" when it says nothing or fails (a host's reader must not break the list).
 */
export function readSoFar(read: (stopped: boolean) => string, stopped: boolean): string {
  try {
    return plainOutput(String(read(stopped))).trim();
  } catch {
    return "";
  }
}
