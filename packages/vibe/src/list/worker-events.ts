import { snapshot, type WorkerRecord, type WorkerSnapshot } from "./worker.js";

/**
 * A change of a worker's status, or of what a running worker is doing (its progress line, a card
 * of its opened or answered), for a harness that shows workers. Progress lines are coalesced: at
 * most one `activity` event per worker per {@link activityIntervalMs}, carrying the latest line.
 */
export interface WorkerEvent {
  readonly type: "status" | "activity";
  readonly worker: WorkerSnapshot;
}

/** Receives {@link WorkerEvent}s. */
export type WorkerEventListener = (event: WorkerEvent) => void;

/**
 * Fewest milliseconds between two progress (`activity`) events of one worker, by default (the
 * list's `activityIntervalMs`): an agent CLI writes its output in hundreds of chunks a second,
 * each a new progress line, which a harness forwarding events to a UI or a log cannot take one by one.
 */
export const activityIntervalMs = 200;

/** One worker's progress events: when the last went out, and the latest one held back since. */
interface Held {
  /** `performance.now()` when the last one went out: the wall clock may be set back. */
  lastAt: number;
  pending?: WorkerEvent;
  timer?: NodeJS.Timeout;
}

/**
 * The subscribers of one vibe list. Each event carries a fresh snapshot; a listener that throws
 * is ignored, so it cannot break the workers.
 *
 * Status changes (and a card of a worker opened or answered) go out at once. Progress lines go
 * out at most once per `intervalMs` per worker: the first at once, the ones after it
 * within the interval held back, and only the latest of those sent when the interval is over; one
 * still held when the worker's status changes is sent first, just before that change, so the last
 * progress line is never lost and the status event never waits.
 */
export class WorkerEvents {
  private readonly listeners = new Set<WorkerEventListener>();
  private readonly held = new Map<string, Held>();

  /** `intervalMs`: see {@link activityIntervalMs}; 0 sends every progress line at once. */
  constructor(private readonly intervalMs: number = activityIntervalMs) {}

  /** Subscribes to status changes; returns the unsubscribe function. */
  on(listener: WorkerEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells every listener about `record` now, after its progress line still held back; takes no
   * snapshot when nobody listens.
   */
  emit(record: WorkerRecord, type: WorkerEvent["type"] = "status"): void {
    this.flush(record.id);
    if (type === "status") this.held.delete(record.id);
    if (this.listeners.size === 0) return;
    this.send({ type, worker: snapshot(record, Date.now()) });
  }

  /**
   * Tells every listener about `record`'s new progress line: at once when none went out in the
   * last `intervalMs`, else when that interval is over (the latest line by then).
   */
  progress(record: WorkerRecord): void {
    if (this.listeners.size === 0) return;
    const now = performance.now();
    const event: WorkerEvent = { type: "activity", worker: snapshot(record, Date.now()) };
    let held = this.held.get(record.id);
    if (!held) {
      held = { lastAt: -Infinity };
      this.held.set(record.id, held);
    }
    if (held.timer === undefined && now - held.lastAt >= this.intervalMs) {
      held.lastAt = now;
      this.send(event);
      return;
    }
    held.pending = event;
    if (held.timer === undefined) {
      const timer = setTimeout(() => this.flush(record.id), Math.max(0, held.lastAt + this.intervalMs - now));
      timer.unref();
      held.timer = timer;
    }
  }

  /** Sends the worker's progress event held back, if any, now. */
  private flush(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    clearTimeout(held.timer);
    held.timer = undefined;
    const pending = held.pending;
    if (!pending) return;
    held.pending = undefined;
    held.lastAt = performance.now();
    this.send(pending);
  }

  private send(event: WorkerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break workers.
      }
    }
  }
}
