import { errorMessage, ToolsError } from "@tools/registry";
import { plainOutput } from "../internal/plain-output.js";
import { startAttempt, stopAttempt, type AttemptContext, type AttemptOutcome } from "./worker-attempt.js";
import type { WorkerFailure, WorkerRecord } from "./worker.js";

/** Options of {@link WorkerScheduler}; the list validates them. */
export interface WorkerSchedulerOptions {
  /** Most workers running at once. */
  readonly concurrency: number;
  /** How long a stop waits for an attempt, in milliseconds. */
  readonly stopTimeoutMs: number;
  readonly context: AttemptContext;
}

/**
 * The workers of one list and their queue: keeps at most `concurrency` attempts running, starts
 * queued workers in order as slots free up, and decides what a settled attempt becomes (done,
 * failed, killed, or queued again after a re-brief). The list's public API sits on top of it.
 */
export class WorkerScheduler {
  /** Every worker by id, in spawn order. */
  readonly workers = new Map<string, WorkerRecord>();

  private readonly concurrency: number;
  private readonly stopTimeoutMs: number;
  private readonly context: AttemptContext;
  private readonly queue: WorkerRecord[] = [];
  private closing: Promise<void> | undefined;

  constructor(options: WorkerSchedulerOptions) {
    this.concurrency = options.concurrency;
    this.stopTimeoutMs = options.stopTimeoutMs;
    this.context = options.context;
  }

  /** True once {@link dispose} has been called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** Adds a new queued worker at the back of the queue and starts it if a slot is free. */
  add(record: WorkerRecord): void {
    this.workers.set(record.id, record);
    this.queue.push(record);
    this.context.events.emit(record);
    this.schedule();
  }

  /** Queues a worker again, at the front: it had a slot (or a turn) already. */
  requeue(record: WorkerRecord): void {
    record.rerun = false;
    record.soFar = undefined;
    record.status = "queued";
    record.queuedAt = Date.now();
    record.startedAt = undefined;
    record.endedAt = undefined;
    this.queue.unshift(record);
    this.context.events.emit(record);
    this.schedule();
  }

  /** Takes a queued worker out of the queue (it will not start). */
  unqueue(record: WorkerRecord): void {
    const index = this.queue.indexOf(record);
    if (index >= 0) this.queue.splice(index, 1);
  }

  /**
   * Aborts the worker's running attempt and waits (bounded) for it to stop and settle. False when
   * it did not stop in time: it is then detached, and its outcome ignored.
   */
  stop(record: WorkerRecord, reason: Error): Promise<boolean> {
    return stopAttempt(record, reason, this.stopTimeoutMs);
  }

  /** Ends the worker with `status`, wakes its waiters, and gives its slot to the next in line. */
  finish(record: WorkerRecord, status: "done" | "failed" | "killed", result: string): void {
    // An attempt still attached (one a re-brief started while a kill waited) is stopped with
    // the worker: cleared without an abort, nothing could reach it any more.
    record.controller?.abort(new ToolsError({ code: "CANCELLED", message: `the worker ended (${status})` }));
    record.status = status;
    record.endedAt = Date.now();
    // A worker finished while queued (killed, or the list closed): its elapsed time is its wait.
    record.endedQueued = record.startedAt === undefined;
    if (record.startedAt === undefined) record.startedAt = record.queuedAt;
    record.lastResult = result;
    // A rerun cut short by another vibe_send leaves no result: this one stays its attempt's.
    record.resultAttempt = record.endedQueued ? 0 : record.attempts;
    if (status !== "failed") record.failure = undefined;
    record.awaitingApproval = 0;
    record.activity = undefined;
    record.readSoFar = undefined;
    record.controller = undefined;
    record.attempt = undefined;
    this.context.events.emit(record);
    for (const waiter of record.waiters) waiter();
    if (!this.closing) this.schedule();
  }

  /** Kills every worker and waits (bounded) for them to stop. Idempotent; nothing starts after it. */
  dispose(): Promise<void> {
    this.closing ??= this.close();
    return this.closing;
  }

  private async close(): Promise<void> {
    // The list closes with its run, or alone: vibe mode turned off while the run goes on.
    const why = this.context.run.disposed ? "the run ended" : "vibe mode was turned off";
    for (const record of this.queue.splice(0)) this.finish(record, "killed", `${why} while it was queued`);
    const reason = this.context.run.disposed
      ? new ToolsError({ code: "RUN_DISPOSED", message: "the run has ended" })
      : new ToolsError({ code: "CANCELLED", message: why });
    const running = [...this.workers.values()].filter((record) => record.status === "running");
    await Promise.all(
      running.map(async (record) => {
        if (!(await this.stop(record, reason))) {
          this.finish(record, "killed", `${why} (it did not stop in time)`);
        }
      }),
    );
  }

  private schedule(): void {
    if (this.closing) return;
    let running = 0;
    for (const record of this.workers.values()) if (record.status === "running") running++;
    while (running < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift() as WorkerRecord;
      startAttempt(next, this.context, (controller, outcome) => this.settle(next, controller, outcome));
      running++;
    }
  }

  private settle(record: WorkerRecord, controller: AbortController, outcome: AttemptOutcome): void {
    if (record.rerun && !this.closing) {
      this.requeue(record);
      return;
    }
    const run = this.context.run;
    if (controller.signal.aborted || run.signal.aborted) {
      const reason = controller.signal.aborted ? controller.signal.reason : run.signal.reason;
      // What it had done by then (a CLI's output, a model's turn and calls): its edits stay.
      record.soFar = outcome.soFar || undefined;
      const stopped = `${errorMessage(reason)}; it was stopped before it finished`;
      this.finish(record, "killed", record.soFar ? `${stopped}. ${record.soFar}` : stopped);
    } else if (outcome.ok) {
      this.finish(record, "done", outcome.answer);
    } else {
      record.failure = failureKind(outcome.error);
      // A failure may quote the worker's model (a refusal, a reply cut short): plain text too.
      this.finish(record, "failed", plainOutput(errorMessage(outcome.error)));
    }
    this.schedule();
  }
}

/**
 * What a failure was when not the task's: `setup` for one no rerun can mend (the worker's command
 * is not there, the backend's key, model or URL is wrong), `unavailable` for the model server's.
 */
function failureKind(error: unknown): WorkerFailure | undefined {
  if (!ToolsError.isInstance(error)) return undefined;
  if (error.code === "COMMAND_NOT_FOUND" || error.code === "INVALID_BACKEND_CONFIG") return "setup";
  if (error.code === "MODEL_UNAVAILABLE") return "unavailable";
  return undefined;
}
