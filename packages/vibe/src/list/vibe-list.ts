import { resourceKey, surfaces, ToolsError, type Registry, type Run, type Surface } from "@tools/registry";
import { createBackend, type BackendConfig } from "../backends/backend-config.js";
import type { WorkerBackend, WorkerTier } from "../backends/worker-backend.js";
import { VibeError } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import { isFinished, snapshot, type WorkerRecord, type WorkerSnapshot } from "./worker.js";
import { WorkerEvents, type WorkerEventListener } from "./worker-events.js";
import { WorkerScheduler } from "./worker-scheduler.js";

export type { WorkerEvent, WorkerEventListener } from "./worker-events.js";

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

  private readonly run: Run;
  private readonly events = new WorkerEvents();
  private readonly scheduler: WorkerScheduler;
  private counter = 0;

  constructor(options: VibeListOptions) {
    const concurrency = options.concurrency ?? 2;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `concurrency must be a whole number of at least 1, got ${String(concurrency)}`,
      });
    }
    this.concurrency = concurrency;
    this.run = options.run;
    this.backend = isBackend(options.backend) ? options.backend : createBackend(options.backend);
    this.scheduler = new WorkerScheduler({
      concurrency,
      stopTimeoutMs: options.stopTimeoutMs ?? 5000,
      context: {
        backend: this.backend,
        registry: options.registry,
        run: options.run,
        surface: options.surface ?? surfaces.worker,
        events: this.events,
      },
    });
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
    this.scheduler.add(record);
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
      const stopped = await this.scheduler.stop(
        record,
        new ToolsError({ code: "CANCELLED", message: "re-briefed by vibe_send" }),
      );
      if (!stopped) this.scheduler.requeue(record); // settling requeues an attempt that stopped in time
    } else {
      this.scheduler.requeue(record);
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
  async kill(id: string): Promise<{ worker: WorkerSnapshot; wasFinished: boolean; stoppedInTime: boolean }> {
    const record = this.lookup(id);
    if (isFinished(record.status))
      return { worker: snapshot(record, Date.now()), wasFinished: true, stoppedInTime: true };
    record.rerun = false;
    let stoppedInTime = true;
    if (record.status === "queued") {
      this.scheduler.unqueue(record);
      this.scheduler.finish(record, "killed", "killed before it started");
    } else {
      stoppedInTime = await this.scheduler.stop(
        record,
        new ToolsError({ code: "CANCELLED", message: "killed by vibe_kill" }),
      );
      // A re-brief racing this kill may have queued or started the worker again meanwhile
      // (the status changed during the await: read it afresh).
      const now: string = record.status;
      if (now === "queued") this.scheduler.unqueue(record);
      // An attempt started meanwhile is only told to stop (below), not waited for.
      if (now === "running") stoppedInTime = false;
      if (!isFinished(record.status))
        this.scheduler.finish(
          record,
          "killed",
          stoppedInTime ? "killed" : "killed (it did not stop in time)",
        );
    }
    return { worker: snapshot(record, Date.now()), wasFinished: false, stoppedInTime };
  }

  /** Every worker, in spawn order. */
  list(): WorkerSnapshot[] {
    const now = Date.now();
    return [...this.scheduler.workers.values()].map((record) => snapshot(record, now));
  }

  /** One worker; throws `UNKNOWN_WORKER` listing the known ids. */
  get(id: string): WorkerSnapshot {
    return snapshot(this.lookup(id), Date.now());
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  on(listener: WorkerEventListener): () => void {
    return this.events.on(listener);
  }

  /**
   * True once the list is disposed: vibe mode is off for the run, and the vibe_* tools are no
   * longer available in it (wiring a new list turns it on again).
   */
  get closed(): boolean {
    return this.scheduler.closed || this.run.disposed;
  }

  /**
   * Kills every worker and waits (bounded) for them to stop. Idempotent; the run calls it. Called
   * while the run goes on, it turns vibe mode off: the vibe_* tools leave the run's surfaces.
   */
  dispose(): Promise<void> {
    return this.scheduler.dispose();
  }

  private assertOpen(): void {
    if (this.run.disposed) {
      throw new VibeError({
        code: "VIBE_LIST_CLOSED",
        message: "the run has ended, so no worker can start; start a new run",
      });
    }
    if (this.scheduler.closed) {
      throw new VibeError({ code: "VIBE_LIST_CLOSED", message: `no worker can start: ${vibeModeOff}` });
    }
  }

  private lookup(id: string): WorkerRecord {
    const workers = this.scheduler.workers;
    const record = workers.get(id.trim());
    if (record) return record;
    const known = [...workers.values()].map((worker) => `${worker.id} (${worker.label}, ${worker.status})`);
    throw new VibeError({
      code: "UNKNOWN_WORKER",
      message:
        known.length === 0
          ? `no worker '${id}': no worker has been spawned in this run. Start one with vibe_spawn.`
          : `no worker '${id}'; known workers: ${known.join(", ")}. Use one of these ids (vibe_list shows them all).`,
      data: { id, known: [...workers.keys()] },
    });
  }
}

/** The resource key of the vibe list: the five vibe_* tools are registered only when it is wired. */
export const vibeListKey = resourceKey<VibeList>("vibe list");

/** Why a closed list's tools are unavailable; the model reads it after "… is not available in this run: ". */
const vibeModeOff =
  "vibe mode is off (it was turned off and its workers were stopped); the operator can turn it on again to use background workers, until then do the work yourself";

/**
 * The vibe_* tools' registration condition beyond a wired list (their `available`): the list is
 * still open. Disposing the list mid-run turns vibe mode off, and the tools leave the surfaces.
 */
export function vibeModeOn(run: Run): true | string {
  return run.get(vibeListKey)?.closed === true ? vibeModeOff : true;
}

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
