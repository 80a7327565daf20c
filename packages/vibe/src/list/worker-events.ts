import { snapshot, type WorkerRecord, type WorkerSnapshot } from "./worker.js";

/** A change of a worker's status, or a new progress line of a running worker, for a harness that shows workers. */
export interface WorkerEvent {
  readonly type: "status" | "activity";
  readonly worker: WorkerSnapshot;
}

/** Receives {@link WorkerEvent}s. */
export type WorkerEventListener = (event: WorkerEvent) => void;

/**
 * The subscribers of one vibe list. Each event carries a fresh snapshot; a listener that throws
 * is ignored, so it cannot break the workers.
 */
export class WorkerEvents {
  private readonly listeners = new Set<WorkerEventListener>();

  /** Subscribes to status changes; returns the unsubscribe function. */
  on(listener: WorkerEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener about `record`; takes no snapshot when nobody listens. */
  emit(record: WorkerRecord, type: WorkerEvent["type"] = "status"): void {
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
