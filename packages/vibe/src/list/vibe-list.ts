import {
  errorMessage,
  resourceKey,
  surfaces,
  ToolsError,
  type Registry,
  type Run,
  type Surface,
} from "@tools/registry";
import { createBackend, type BackendConfig } from "../backends/backend-config.js";
import type { WorkerBackend, WorkerTier } from "../backends/worker-backend.js";
import { VibeError } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import { settleWithin } from "../internal/settle-within.js";
import { isFinished, snapshot, type WorkerRecord, type WorkerSnapshot } from "./worker.js";
import { createWorkerToolbox } from "./worker-toolbox.js";

/** Options of {@link createVibeList}. */
export interface VibeListOptions {
  /** The registry the workers call their tools through. */
  registry: Registry;
  /** The run the workers belong to: they use its tools and end with it. */
  run: Run;
  /** A backend, or its configuration (see {@link createBackend}). */
  backend: WorkerBackend | BackendConfig;
  /** Most workers running at once; more wait as `queued`. Default 2. */
  concurrency?: number;
  /** The surface workers call tools on; default the gated `worker` surface. */
  surface?: Surface;
  /** How long a kill or re-brief waits for an attempt to stop, in milliseconds; default 5000. */
  stopTimeoutMs?: number;
}

/** What {@link VibeList.spawn} takes. */
export interface SpawnRequest {
  brief: string;
  label: string;
  /** Default `fast`. */
  tier?: WorkerTier;
}

/** What {@link VibeList.wait} returns: the worker, and whether it finished before the timeout. */
export interface WaitOutcome {
  readonly finished: boolean;
  readonly worker: WorkerSnapshot;
}

/** A change of a worker's status, or a new progress line of a running worker, for a harness that shows workers. */
export interface WorkerEvent {
  readonly type: "status" | "activity";
  readonly worker: WorkerSnapshot;
}

/** Receives {@link WorkerEvent}s. */
export type WorkerEventListener = (event: WorkerEvent) => void;

/**
 * The background workers of one run — the resource behind the vibe_* tools. Wiring it
 * (`run.wire(vibeListKey, list)`) turns vibe mode on. Spawning never blocks; at most
 * `concurrency` workers run at once, the rest queue in spawn order. Disposing the list (or the
 * run) kills every worker and waits for what they started to stop.
 */
export class VibeList {
  /** Most workers running at once. */
  readonly concurrency: number;
  /** The backend workers run on. */
  readonly backend: WorkerBackend;

  private readonly registry: Registry;
  private readonly run: Run;
  private readonly surface: Surface;
  private readonly stopTimeoutMs: number;
  private readonly workers = new Map<string, WorkerRecord>();
  private readonly queue: WorkerRecord[] = [];
  private readonly listeners = new Set<WorkerEventListener>();
  private counter = 0;
  private closing: Promise<void> | undefined;

  constructor(options: VibeListOptions) {
    const concurrency = options.concurrency ?? 2;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `concurrency must be a whole number of at least 1, got ${String(concurrency)}`,
      });
    }
    this.concurrency = concurrency;
    this.registry = options.registry;
    this.run = options.run;
    this.surface = options.surface ?? surfaces.worker;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 5000;
    this.backend = isBackend(options.backend) ? options.backend : createBackend(options.backend);
    options.run.own(this, "vibe list");
  }

  /** Starts a worker (or queues it at the concurrency limit) and returns it at once. */
  spawn(request: SpawnRequest): WorkerSnapshot {
    this.assertOpen();
    const id = `w${++this.counter}`;
    const record: WorkerRecord = {
      id,
      label: request.label,
      tier: request.tier ?? "fast",
      brief: request.brief,
      status: "queued",
      queuedAt: Date.now(),
      attempts: 0,
      rerun: false,
      waiters: new Set(),
    };
    this.workers.set(id, record);
    this.queue.push(record);
    this.emit(record);
    this.schedule();
    return snapshot(record, Date.now());
  }

  /**
   * Appends `message` to the worker's brief and runs it again. A running attempt is cancelled
   * first (this waits for it to stop); a queued worker just gets the longer brief.
   */
  async send(id: string, message: string): Promise<WorkerSnapshot> {
    this.assertOpen();
    const record = this.lookup(id);
    record.brief = `${record.brief}\n\n${message}`;
    if (record.status === "queued") return snapshot(record, Date.now());
    if (record.status === "running") {
      record.rerun = true;
      const stopped = await this.stop(
        record,
        new ToolsError({ code: "CANCELLED", message: "re-briefed by vibe_send" }),
      );
      if (!stopped) this.requeue(record); // settle() requeues an attempt that stopped in time
    } else {
      this.requeue(record);
    }
    return snapshot(record, Date.now());
  }

  /**
   * Waits until the worker finishes, at most `timeoutMs`. A worker that is already finished
   * returns at once. Rejects when `signal` aborts.
   */
  wait(id: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<WaitOutcome> {
    const record = this.lookup(id);
    if (isFinished(record.status))
      return Promise.resolve({ finished: true, worker: snapshot(record, Date.now()) });
    const signal = options.signal;
    return new Promise<WaitOutcome>((resolve, reject) => {
      const finish = (finished: boolean): void => {
        clearTimeout(timer);
        record.waiters.delete(onFinished);
        signal?.removeEventListener("abort", onAbort);
        resolve({ finished, worker: snapshot(record, Date.now()) });
      };
      const onFinished = (): void => finish(true);
      const onAbort = (): void => {
        clearTimeout(timer);
        record.waiters.delete(onFinished);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => finish(false), Math.max(0, options.timeoutMs));
      record.waiters.add(onFinished);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Stops the worker and everything it started (its model request, its tool calls, its command's
   * processes); resolves once they have stopped. A finished worker is left as it is.
   */
  async kill(id: string): Promise<{ worker: WorkerSnapshot; wasFinished: boolean }> {
    const record = this.lookup(id);
    if (isFinished(record.status)) return { worker: snapshot(record, Date.now()), wasFinished: true };
    record.rerun = false;
    if (record.status === "queued") {
      this.unqueue(record);
      this.finish(record, "killed", "killed before it started");
    } else {
      const stopped = await this.stop(
        record,
        new ToolsError({ code: "CANCELLED", message: "killed by vibe_kill" }),
      );
      if (!stopped) this.finish(record, "killed", "killed (it did not stop in time)");
    }
    return { worker: snapshot(record, Date.now()), wasFinished: false };
  }

  /** Every worker, in spawn order. */
  list(): WorkerSnapshot[] {
    const now = Date.now();
    return [...this.workers.values()].map((record) => snapshot(record, now));
  }

  /** One worker; throws `UNKNOWN_WORKER` listing the known ids. */
  get(id: string): WorkerSnapshot {
    return snapshot(this.lookup(id), Date.now());
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  on(listener: WorkerEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Kills every worker and waits (bounded) for them to stop. Idempotent; the run calls it. */
  dispose(): Promise<void> {
    this.closing ??= this.close();
    return this.closing;
  }

  private async close(): Promise<void> {
    for (const record of this.queue.splice(0))
      this.finish(record, "killed", "the run ended before it started");
    const reason = new ToolsError({ code: "RUN_DISPOSED", message: "the run has ended" });
    const running = [...this.workers.values()].filter((record) => record.status === "running");
    await Promise.all(
      running.map(async (record) => {
        if (!(await this.stop(record, reason))) {
          this.finish(record, "killed", "the run ended (it did not stop in time)");
        }
      }),
    );
  }

  private assertOpen(): void {
    if (this.closing || this.run.disposed) {
      throw new VibeError({
        code: "VIBE_LIST_CLOSED",
        message: "the run has ended, so no worker can start; start a new run",
      });
    }
  }

  private lookup(id: string): WorkerRecord {
    const record = this.workers.get(id.trim());
    if (record) return record;
    const known = [...this.workers.values()].map(
      (worker) => `${worker.id} (${worker.label}, ${worker.status})`,
    );
    throw new VibeError({
      code: "UNKNOWN_WORKER",
      message:
        known.length === 0
          ? `no worker '${id}': no worker has been spawned in this run. Start one with vibe_spawn.`
          : `no worker '${id}'; known workers: ${known.join(", ")}. Use one of these ids (vibe_list shows them all).`,
      data: { id, known: [...this.workers.keys()] },
    });
  }

  private requeue(record: WorkerRecord): void {
    record.rerun = false;
    record.status = "queued";
    record.queuedAt = Date.now();
    record.startedAt = undefined;
    record.endedAt = undefined;
    // It had a slot (or a turn) already: it goes first.
    this.queue.unshift(record);
    this.emit(record);
    this.schedule();
  }

  private unqueue(record: WorkerRecord): void {
    const index = this.queue.indexOf(record);
    if (index >= 0) this.queue.splice(index, 1);
  }

  private schedule(): void {
    if (this.closing) return;
    let running = 0;
    for (const record of this.workers.values()) if (record.status === "running") running++;
    while (running < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift() as WorkerRecord;
      this.start(next);
      running++;
    }
  }

  private start(record: WorkerRecord): void {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.run.signal]);
    record.status = "running";
    record.startedAt = Date.now();
    record.endedAt = undefined;
    record.attempts++;
    record.activity = undefined;
    record.controller = controller;
    const task = {
      workerId: record.id,
      label: record.label,
      tier: record.tier,
      brief: record.brief,
      workingDirectory: this.run.workingDirectory,
      signal,
      toolbox: createWorkerToolbox(
        this.registry,
        this.run,
        this.surface,
        signal,
        `worker ${record.id} "${record.label}"`,
      ),
      progress: (message: string) => {
        if (record.controller !== controller) return;
        record.activity = message;
        this.emit(record, "activity");
      },
    };
    this.emit(record);
    record.attempt = Promise.resolve()
      .then(() => this.backend.perform(task))
      .then(
        (answer) => this.settle(record, controller, { ok: true, answer }),
        (error: unknown) => this.settle(record, controller, { ok: false, error }),
      );
  }

  private settle(
    record: WorkerRecord,
    controller: AbortController,
    outcome: { ok: true; answer: string } | { ok: false; error: unknown },
  ): void {
    if (record.controller !== controller) return; // detached after a stop that timed out
    record.controller = undefined;
    record.attempt = undefined;
    if (record.rerun && !this.closing) {
      this.requeue(record);
      return;
    }
    if (controller.signal.aborted || this.run.signal.aborted) {
      const reason = controller.signal.aborted ? controller.signal.reason : this.run.signal.reason;
      this.finish(record, "killed", `${errorMessage(reason)}; it was stopped before it finished`);
    } else if (outcome.ok) {
      this.finish(record, "done", outcome.answer);
    } else {
      this.finish(record, "failed", errorMessage(outcome.error));
    }
    this.schedule();
  }

  /**
   * Aborts the running attempt and waits (bounded) for it to stop and settle. False when it did
   * not stop in time: it is then detached, and its outcome ignored.
   */
  private async stop(record: WorkerRecord, reason: Error): Promise<boolean> {
    const controller = record.controller;
    const attempt = record.attempt;
    if (!controller || !attempt) return true;
    controller.abort(reason);
    const stopped = await settleWithin(attempt, this.stopTimeoutMs);
    if (!stopped && record.controller === controller) {
      record.controller = undefined;
      record.attempt = undefined;
    }
    return stopped;
  }

  private finish(record: WorkerRecord, status: "done" | "failed" | "killed", result: string): void {
    record.status = status;
    record.endedAt = Date.now();
    if (record.startedAt === undefined) record.startedAt = record.queuedAt;
    record.lastResult = result;
    record.activity = undefined;
    record.controller = undefined;
    record.attempt = undefined;
    this.emit(record);
    for (const waiter of record.waiters) waiter();
    if (!this.closing) this.schedule();
  }

  private emit(record: WorkerRecord, type: WorkerEvent["type"] = "status"): void {
    if (this.listeners.size === 0) return;
    const event: WorkerEvent = { type, worker: snapshot(record, Date.now()) };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break workers.
      }
    }
  }
}

/** The resource key of the vibe list: the five vibe_* tools are registered only when it is wired. */
export const vibeListKey = resourceKey<VibeList>("vibe list");

/**
 * Creates the vibe list of a run. It ends with the run; wire it to turn vibe mode on:
 * `run.wire(vibeListKey, createVibeList({ registry, run, backend }))`.
 */
export function createVibeList(options: VibeListOptions): VibeList {
  return new VibeList(options);
}

function isBackend(value: WorkerBackend | BackendConfig): value is WorkerBackend {
  return typeof (value as { perform?: unknown }).perform === "function";
}
