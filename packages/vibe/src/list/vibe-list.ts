import {
  countNoun,
  resourceKey,
  surfaces,
  tierWithin,
  ToolsError,
  type Registry,
  type Run,
  type Surface,
  type Tier,
} from "@tools/registry";
import { createBackend, type BackendConfig } from "../backends/backend-config.js";
import type { WorkerBackend, WorkerTier } from "../backends/worker-backend.js";
import { VibeError } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import { maxTimerMs } from "../internal/settle-within.js";
import { isFinished, snapshot, type WorkerRecord, type WorkerSnapshot, type WorkerStatus } from "./worker.js";
import {
  activityIntervalMs as defaultActivityIntervalMs,
  WorkerEvents,
  type WorkerEventListener,
} from "./worker-events.js";
import { checkSendInput, checkSpawnInput } from "./worker-input.js";
import { WorkerScheduler } from "./worker-scheduler.js";
import { readSoFar } from "./worker-attempt.js";

export type { WorkerEvent, WorkerEventListener } from "./worker-events.js";

/** Options of {@link createVibeList}. */
export interface VibeListOptions {
  /**
   * The registry the workers call their tools through. The vibe_* tools are best called through
   * it too: a vibe_wait sent with a vibe_send in one batch waits for the send only when the list
   * sees the send's call (through this registry's call events).
   */
  registry: Registry;
  /** The run the workers belong to: they use its tools and end with it. */
  run: Run;
  /** A backend, or its configuration (see {@link createBackend}). */
  backend: WorkerBackend | BackendConfig;
  /** Most workers running at once; more wait as `queued`. Default 2. */
  concurrency?: number;
  /** The surface workers call tools on; default the gated `worker` surface. */
  surface?: Surface;
  /**
   * How long a kill, re-brief or dispose waits for an attempt to stop, in milliseconds; default
   * 5000, and never less than the backend's `stopMs` (a command backend's `graceMs` and the wait
   * for its output after it), so a run's dispose does not end while a worker's process still runs.
   */
  stopTimeoutMs?: number;
  /**
   * Most workers queued or running at once (finished ones do not count); a spawn or re-brief
   * beyond it is refused (`TOO_MANY_WORKERS`). Default 16.
   */
  maxActive?: number;
  /**
   * Fewest milliseconds between two progress (`activity`) events of one worker seen by
   * {@link VibeList.on}: a worker's first progress line goes out at once, the lines after it
   * within this interval only as the latest of them when it is over (and always just before the
   * worker's next status event). Status events are never held back. Default 200; 0 sends every
   * progress line (an agent CLI's output makes one per chunk, hundreds a second).
   */
  activityIntervalMs?: number;
}

/** What {@link VibeList.spawn} takes. */
export interface SpawnRequest {
  brief: string;
  label: string;
  /** Default `fast`. */
  tier?: WorkerTier;
  /**
   * The highest tier the worker's tools may have: the spawner's cap (a worker spawned from plan
   * mode only reads). Default `exec`, bounded by the list's surface either way.
   */
  cap?: Tier;
}

/** Options of {@link VibeList.send}. */
export interface SendOptions {
  /**
   * The sender's cap: a worker whose tools go above it is not rerun (`WORKER_ABOVE_CAP`), so a
   * read-only sender cannot restart a worker that writes. Default `exec`.
   */
  cap?: Tier;
}

/** What {@link VibeList.send} returns: the worker after the re-brief, and its status before it. */
export interface SendOutcome {
  readonly before: WorkerStatus;
  readonly worker: WorkerSnapshot;
}

/** What {@link VibeList.kill} returns: the worker after the kill, and its status before it. */
export interface KillOutcome {
  readonly before: WorkerStatus;
  readonly worker: WorkerSnapshot;
  /** True when it had finished already: nothing was stopped. */
  readonly wasFinished: boolean;
  /** False when it was told to stop but had not stopped within the list's `stopTimeoutMs`. */
  readonly stoppedInTime: boolean;
  /**
   * What it had done when it stopped, as its backend said (a CLI's output until then, a model's
   * turn and tool calls); its edits stay. Unset when it was not running or said nothing.
   */
  readonly soFar?: string;
}

/** What {@link VibeList.wait} returns: the worker, and whether it finished before the timeout. */
export interface WaitOutcome {
  readonly finished: boolean;
  readonly worker: WorkerSnapshot;
  /** Set when the wait was ended early by {@link VibeList.endWaits}: why ("the run is ending"). */
  readonly endedBecause?: string;
  /**
   * When it has not finished: what it has done so far, as its backend says (the end of a CLI's
   * output, a model's turn and tool calls); unset when the backend says nothing of it.
   */
  readonly soFar?: string;
  /**
   * Set when a vibe_send to the worker, sent before the wait, has not taken effect as the wait
   * ends: the result (or the run in progress) is from before it. `"approval"` while its approval
   * card is open; `"other"` when it waits for something else (its check for the caller's earlier
   * calls, a stop of the worker's run).
   */
  readonly sendPending?: "approval" | "other";
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
  /** Most workers queued or running at once. */
  readonly maxActive: number;

  private readonly run: Run;
  private readonly events: WorkerEvents;
  private readonly scheduler: WorkerScheduler;
  private counter = 0;
  private readonly surfaceCap: Tier;
  /** Ends the waits in progress (see {@link endWaits}). */
  private readonly waitEnders = new Set<(reason: string) => void>();
  /** vibe_send calls checked but not over yet, by call id: the worker each re-briefs. */
  private readonly sendsOnTheWay = new Map<string, { id: string; done: Promise<void>; end: () => void }>();
  /**
   * vibe_send calls of the list's registry not over yet, by call id: true while the call's
   * approval card is open. A call it does not see (another registry's) is never expected, since
   * its end would not be seen either.
   */
  private readonly sendCalls = new Map<string, boolean>();
  /** Stops listening for the end of those calls. */
  private readonly stopWatchingCalls: () => void;

  constructor(options: VibeListOptions) {
    const concurrency = options.concurrency ?? 2;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `concurrency must be a whole number of at least 1, got ${String(concurrency)}`,
      });
    }
    const maxActive = options.maxActive ?? 16;
    if (!Number.isInteger(maxActive) || maxActive < 1) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `maxActive must be a whole number of at least 1, got ${String(maxActive)}`,
      });
    }
    const stopTimeoutMs = options.stopTimeoutMs ?? 5000;
    if (!(stopTimeoutMs >= 0)) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `stopTimeoutMs must be a number of milliseconds of at least 0, got ${String(stopTimeoutMs)}`,
      });
    }
    const activityIntervalMs = options.activityIntervalMs ?? defaultActivityIntervalMs;
    if (!(activityIntervalMs >= 0 && activityIntervalMs <= maxTimerMs)) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `activityIntervalMs must be a number of milliseconds from 0 to ${maxTimerMs}, got ${String(activityIntervalMs)}: the fewest between two progress events of a worker (default 200; 0 sends each)`,
      });
    }
    this.events = new WorkerEvents(activityIntervalMs);
    this.concurrency = concurrency;
    this.maxActive = maxActive;
    this.surfaceCap = (options.surface ?? surfaces.worker).cap;
    this.run = options.run;
    this.backend = isBackend(options.backend) ? options.backend : createBackend(options.backend);
    this.scheduler = new WorkerScheduler({
      concurrency,
      stopTimeoutMs: stopBound(stopTimeoutMs, this.backend),
      context: {
        backend: this.backend,
        registry: options.registry,
        run: options.run,
        surface: options.surface ?? surfaces.worker,
        events: this.events,
      },
    });
    // A vibe_send on its way ends with its call, however it ends (done, refused, denied).
    this.stopWatchingCalls = options.registry.on((event) => {
      if (event.type === "call-start") {
        if (event.tool === vibeSendName) this.sendCalls.set(event.callId, false);
      } else if (event.type === "call-approval") {
        if (this.sendCalls.has(event.callId)) this.sendCalls.set(event.callId, event.state === "asked");
      } else if (event.type === "call-end") {
        this.sendCalls.delete(event.callId);
        this.sendsOnTheWay.get(event.callId)?.end();
      }
    });
    options.run.own(this, "vibe list");
  }

  /**
   * Starts a worker (or queues it at the concurrency limit) and returns it at once. A brief, label
   * or tier vibe_spawn would refuse (a blank brief, a label that reads as an option or displays as
   * another) is refused here too, with the same `INVALID_ARGUMENTS`.
   */
  spawn(request: SpawnRequest): WorkerSnapshot {
    checkSpawnInput(request);
    this.assertOpen();
    this.assertRoom("no worker was started");
    const id = `w${++this.counter}`;
    const cap = request.cap ?? "exec";
    const record: WorkerRecord = {
      id,
      label: request.label,
      tier: request.tier ?? "fast",
      cap: tierWithin(cap, this.surfaceCap) ? cap : this.surfaceCap,
      brief: request.brief,
      status: "queued",
      queuedAt: Date.now(),
      attempts: 0,
      rerun: false,
      waiters: new Set(),
      control: Promise.resolve(),
      awaitingApproval: 0,
    };
    this.scheduler.add(record);
    return snapshot(record, Date.now());
  }

  /**
   * Throws what {@link spawn} would throw now (`VIBE_LIST_CLOSED`, `TOO_MANY_WORKERS`), starting
   * nothing: vibe_spawn's check, which refuses such a call before the operator is asked.
   */
  checkSpawn(): void {
    this.assertOpen();
    this.assertRoom("no worker was started");
  }

  /**
   * Throws what {@link send} would throw now (`UNKNOWN_WORKER`, `WORKER_ABOVE_CAP`,
   * `TOO_MANY_WORKERS` for a finished worker at the limit, `VIBE_LIST_CLOSED`), changing nothing:
   * vibe_send's check, which refuses such a call before the operator is asked.
   */
  checkSend(id: string, options: SendOptions = {}): void {
    this.assertOpen();
    const record = this.sendable(id, options);
    if (isFinished(record.status)) this.assertRoom(`${record.id} was not rerun`);
  }

  /**
   * Tells the list that call `callId`, a vibe_send its check let through, is on its way to
   * re-brief worker `id` (its approval card may be open yet): a wait of that worker that comes
   * meanwhile waits for the send to take effect (or to fail) first, at most its own timeout, so a
   * "follow up and wait" batch never answers with the old result. Over when the call ends; a call
   * the list's registry did not start (its end would never be seen) is ignored.
   */
  expectSend(id: string, callId: string): void {
    const record = this.lookup(id);
    // Closed, nothing ends it (the call's end is no longer watched) and no send can take effect;
    // a call of another registry than the list's (the workers'): its end is never seen.
    if (this.closed || this.sendsOnTheWay.has(callId) || !this.sendCalls.has(callId)) return;
    let end: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      end = () => {
        this.sendsOnTheWay.delete(callId);
        resolve();
      };
    });
    this.sendsOnTheWay.set(callId, { id: record.id, done, end });
  }

  /**
   * Appends `message` to the worker's brief and runs it again. A running attempt is cancelled
   * first (this waits for it to stop); a queued worker just gets the longer brief. A blank
   * message is refused (`INVALID_ARGUMENTS`, as vibe_send refuses it), changing nothing.
   */
  send(id: string, message: string, options: SendOptions = {}): Promise<SendOutcome> {
    checkSendInput(id, message);
    this.assertOpen();
    const record = this.sendable(id, options);
    // Sends and kills of one worker take effect one after another, in the order they came: a
    // kill and a re-brief in one batch then agree on what became of the worker.
    return this.inTurn(record, async () => {
      this.assertOpen();
      const before = record.status;
      if (before !== "queued" && before !== "running") this.assertRoom(`${record.id} was not rerun`);
      record.brief = `${record.brief}\n\n${message}`;
      if (before === "running") {
        record.rerun = true;
        const stopped = await this.scheduler.stop(
          record,
          new ToolsError({ code: "CANCELLED", message: "re-briefed by vibe_send" }),
        );
        if (!stopped) this.scheduler.requeue(record); // settling requeues an attempt that stopped in time
      } else if (before !== "queued") {
        this.scheduler.requeue(record);
      }
      return { before, worker: snapshot(record, Date.now()) };
    });
  }

  /**
   * Waits until the worker finishes, at most `timeoutMs`. A worker that is already finished
   * returns at once. Rejects when `signal` aborts.
   */
  wait(id: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<WaitOutcome> {
    const record = this.lookup(id);
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    // A wait that came after a send or kill of this worker (a "follow up and wait" batch) sees
    // what it made of it: never the old result of a worker being rerun. Bounded by the wait's
    // own timeout (a send's card may stay open), counted from the call.
    // As the wait itself, that part ends with the wait's signal and with endWaits.
    const sends = [...this.sendsOnTheWay.values()].filter((send) => send.id === record.id);
    const signal = options.signal;
    return (async (): Promise<WaitOutcome> => {
      let arrived = true;
      const ended = (reason: string): WaitOutcome => ({
        finished: false,
        worker: snapshot(record, Date.now()),
        endedBecause: reason,
      });
      if (sends.length > 0) {
        const all = Promise.all(sends.map((send) => send.done));
        const got = await this.waitEnding(all, Math.min(Math.max(0, options.timeoutMs), maxTimerMs), signal);
        if (typeof got === "string") return ended(got);
        arrived = got;
      }
      // The sends and kills of it that came before take effect (each bounded by a stop's wait).
      const turn = await this.waitEnding(record.control, maxTimerMs, signal);
      if (typeof turn === "string") return ended(turn);
      const outcome = await this.waitNow(record, {
        timeoutMs: deadline - Date.now(),
        ...(signal ? { signal } : {}),
      });
      if (arrived) return outcome;
      const pending = [...this.sendsOnTheWay.entries()].filter(([, send]) => send.id === record.id);
      if (pending.length === 0) return outcome;
      // Its card open, or waiting for something else: the lead is told which.
      const card = pending.some(([callId]) => this.sendCalls.get(callId) === true);
      return { ...outcome, sendPending: card ? "approval" : "other" };
    })();
  }

  /**
   * Waits for `promise`, at most `ms`: true once it settled, false past `ms`, the reason when
   * {@link endWaits} ended the waits meanwhile; rejects when `signal` aborts.
   */
  private waitEnding(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean | string> {
    return new Promise<boolean | string>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        this.waitEnders.delete(onEnded);
        signal?.removeEventListener("abort", onAbort);
      };
      const end = (value: boolean | string): void => {
        settle();
        resolve(value);
      };
      const onEnded = (reason: string): void => end(reason);
      const onAbort = (): void => {
        settle();
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => end(false), ms);
      promise.then(
        () => end(true),
        () => end(true),
      );
      this.waitEnders.add(onEnded);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private waitNow(
    record: WorkerRecord,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<WaitOutcome> {
    if (isFinished(record.status))
      return Promise.resolve({ finished: true, worker: snapshot(record, Date.now()) });
    const signal = options.signal;
    return new Promise<WaitOutcome>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        record.waiters.delete(onFinished);
        this.waitEnders.delete(onEnded);
        signal?.removeEventListener("abort", onAbort);
      };
      const finish = (finished: boolean, endedBecause?: string): void => {
        settle();
        const soFar = !finished && record.readSoFar ? readSoFar(record.readSoFar, false) : "";
        resolve({
          finished,
          worker: snapshot(record, Date.now()),
          ...(endedBecause === undefined ? {} : { endedBecause }),
          ...(soFar ? { soFar } : {}),
        });
      };
      const onFinished = (): void => finish(true);
      const onEnded = (reason: string): void => finish(false, reason);
      const onAbort = (): void => {
        settle();
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => finish(false), Math.max(0, options.timeoutMs));
      record.waiters.add(onFinished);
      this.waitEnders.add(onEnded);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Stops the worker and everything it started (its model request, its tool calls, its command's
   * processes); resolves once they have stopped. A finished worker is left as it is.
   */
  kill(id: string): Promise<KillOutcome> {
    const record = this.lookup(id);
    return this.inTurn(record, () => this.killNow(record));
  }

  private async killNow(record: WorkerRecord): Promise<KillOutcome> {
    const before = record.status;
    if (isFinished(before))
      return { before, worker: snapshot(record, Date.now()), wasFinished: true, stoppedInTime: true };
    record.rerun = false;
    let stoppedInTime = true;
    if (before === "queued") {
      this.scheduler.unqueue(record);
      this.scheduler.finish(record, "killed", "killed by vibe_kill while it was queued");
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
    const soFar = before === "running" && record.status === "killed" ? record.soFar : undefined;
    return {
      before,
      worker: snapshot(record, Date.now()),
      wasFinished: false,
      stoppedInTime,
      ...(soFar === undefined ? {} : { soFar }),
    };
  }

  /** Every worker, in spawn order. */
  list(): WorkerSnapshot[] {
    const now = Date.now();
    return [...this.scheduler.workers.values()].map((record) => snapshot(record, now));
  }

  /** One worker, or undefined when there is none of that id. */
  find(id: string): WorkerSnapshot | undefined {
    const record = this.scheduler.workers.get(id.trim());
    return record ? snapshot(record, Date.now()) : undefined;
  }

  /**
   * Ends every wait in progress now, with `reason` (its vibe_wait answers at once that the run is
   * ending): a host shutting down does not wait for observers. The workers are not touched.
   */
  endWaits(reason: string): void {
    // Each end removes itself; a Set iterates on past a deleted entry.
    for (const end of this.waitEnders) end(reason);
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
    this.stopWatchingCalls();
    this.sendCalls.clear();
    // Each end removes itself; a Map iterates on past a deleted entry.
    for (const send of this.sendsOnTheWay.values()) send.end();
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

  /** Refuses another queued or running worker at the limit. */
  private assertRoom(what: string): void {
    let active = 0;
    for (const record of this.scheduler.workers.values()) if (!isFinished(record.status)) active++;
    if (active < this.maxActive) return;
    throw new VibeError({
      code: "TOO_MANY_WORKERS",
      message: `${what}: ${active} ${active === 1 ? "worker is" : "workers are"} queued or running, the most this run allows (${this.maxActive}). Wait for one to finish (vibe_wait), or vibe_kill one you no longer need, then try again.`,
      data: { active, maxActive: this.maxActive },
    });
  }

  /** The worker `send` reruns; throws `UNKNOWN_WORKER`, or `WORKER_ABOVE_CAP` above the sender's cap. */
  private sendable(id: string, options: SendOptions): WorkerRecord {
    const record = this.lookup(id);
    const cap = options.cap ?? "exec";
    if (!tierWithin(record.cap, cap)) {
      throw new VibeError({
        code: "WORKER_ABOVE_CAP",
        message: `${record.id} "${record.label}" has ${record.cap} tools, more than this caller may use (${cap} tools only), so it was not rerun. Spawn a new worker for this (it gets your tools), or re-brief ${record.id} from the main agent.`,
        data: { id: record.id, workerCap: record.cap, cap },
      });
    }
    return record;
  }

  /** Runs `step` once the worker's earlier sends and kills have taken effect. */
  private inTurn<T>(record: WorkerRecord, step: () => Promise<T>): Promise<T> {
    const result = record.control.then(step);
    record.control = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private lookup(id: string): WorkerRecord {
    const workers = this.scheduler.workers;
    const record = workers.get(id.trim());
    if (record) return record;
    const all = [...workers.values()];
    // A label where the id goes: the worker (or workers, labels may clash) that carry it.
    const labelled = all.filter((worker) => worker.label === id.trim());
    if (labelled.length > 0) {
      const named = labelled
        .slice(-knownShown)
        .map((worker) => `${worker.id} (${worker.status})`)
        .join(", ");
      const one = labelled.length === 1;
      throw new VibeError({
        code: "UNKNOWN_WORKER",
        message: `no worker '${id}': that is a label, not an id; ${one ? "the worker labelled so is" : "the workers labelled so are"} ${named}. Pass ${one ? "its" : "one's"} id: {"worker_id": "${labelled[0]?.id}"}.`,
        data: { id, labelled: labelled.map((worker) => worker.id), known: [...workers.keys()] },
      });
    }
    // The most recent ones, so that a run with hundreds of workers does not answer with them all.
    const known = all.slice(-knownShown).map((worker) => `${worker.id} (${worker.label}, ${worker.status})`);
    const older = all.length - known.length;
    throw new VibeError({
      code: "UNKNOWN_WORKER",
      message:
        known.length === 0
          ? `no worker '${id}': no worker has been spawned in this run. Start one with vibe_spawn.`
          : `no worker '${id}'; known workers: ${known.join(", ")}${older > 0 ? ` (and ${older} older ${countNoun(older, "ones")}, ${older === 1 ? all[0]?.id : `${all[0]?.id} to ${all[older - 1]?.id}`})` : ""}. Use one of these ids (vibe_list shows them all).`,
      data: { id, known: [...workers.keys()] },
    });
  }
}

/** Most known workers an unknown id's error names (the most recent ones). */
const knownShown = 20;

/** The tool whose calls may re-brief a worker that a vibe_wait then waits for (vibe_send). */
const vibeSendName = "vibe_send";

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

/** How long a stop waits: the list's bound, or the backend's `stopMs` when longer; a wait a timer can take. */
function stopBound(stopTimeoutMs: number, backend: WorkerBackend): number {
  const stopMs = backend.stopMs ?? 0;
  if (!(stopMs >= 0)) {
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: `the backend's stopMs must be a number of milliseconds of at least 0, got ${String(stopMs)}: how long its attempts take to stop`,
    });
  }
  return Math.min(Math.max(stopTimeoutMs, stopMs), maxTimerMs);
}

function isBackend(value: WorkerBackend | BackendConfig): value is WorkerBackend {
  return typeof (value as { perform?: unknown }).perform === "function";
}
