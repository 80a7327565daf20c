import type { WorkerTier } from "../backends/worker-backend.js";

/** Where a worker is: waiting for a slot, working, or finished one way or another. */
export type WorkerStatus = "queued" | "running" | "done" | "failed" | "killed";

/** True for the statuses a worker stays in until it is re-briefed. */
export function isFinished(status: WorkerStatus): boolean {
  return status === "done" || status === "failed" || status === "killed";
}

/** A worker as vibe_list and vibe_wait show it; a copy, not a live view. */
export interface WorkerSnapshot {
  /** `w1`, `w2`, … in spawn order, unique within the list. */
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly status: WorkerStatus;
  /** The brief with every sent message appended. */
  readonly brief: string;
  /**
   * Milliseconds of the current (or last) attempt: from its start to its end, or to now while it
   * runs; for a queued worker, how long it has waited.
   */
  readonly elapsedMs: number;
  /** Attempts started so far (each vibe_send starts another). */
  readonly attempts: number;
  /** The final answer of the last attempt, or why it failed or was killed; unbounded. */
  readonly lastResult?: string;
  /** The latest progress line of a running attempt ("turn 2: calling read"). */
  readonly activity?: string;
}

/** The mutable record behind a snapshot; internal to the list. */
export interface WorkerRecord {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  brief: string;
  status: WorkerStatus;
  queuedAt: number;
  startedAt?: number;
  endedAt?: number;
  attempts: number;
  lastResult?: string;
  activity?: string;
  controller?: AbortController;
  attempt?: Promise<void>;
  /** Set by vibe_send on a running worker: when the attempt stops, queue it again. */
  rerun: boolean;
  readonly waiters: Set<() => void>;
}

/** A snapshot of a record at time `now`. */
export function snapshot(record: WorkerRecord, now: number): WorkerSnapshot {
  const elapsedMs =
    record.status === "queued"
      ? now - record.queuedAt
      : (record.endedAt ?? now) - (record.startedAt ?? record.queuedAt);
  return {
    id: record.id,
    label: record.label,
    tier: record.tier,
    status: record.status,
    brief: record.brief,
    elapsedMs,
    attempts: record.attempts,
    ...(record.lastResult === undefined ? {} : { lastResult: record.lastResult }),
    ...(record.activity === undefined || record.status !== "running" ? {} : { activity: record.activity }),
  };
}
