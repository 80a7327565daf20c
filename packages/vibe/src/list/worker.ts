import type { Tier } from "@tools/registry";
import type { WorkerTier } from "../backends/worker-backend.js";

/** Where a worker is: waiting for a slot, working, or finished one way or another. */
export type WorkerStatus = "queued" | "running" | "done" | "failed" | "killed";

/** True for the statuses a worker stays in until it is re-briefed. */
export function isFinished(status: WorkerStatus): boolean {
  return status === "done" || status === "failed" || status === "killed";
}

/**
 * Why a worker failed when it was not the task: `setup`, the harness's configuration (its command
 * was not found, the model server refused the key or has no such model): a rerun cannot help;
 * `unavailable`, the model server (rate limited, failing or not answering, after the retries): a
 * rerun of the same brief may work once it answers again.
 */
export type WorkerFailure = "setup" | "unavailable";

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
  /**
   * The attempt `lastResult` ended (1 for the first); unset when it has none, or when the run it
   * ended never started (killed, or the list closed, while it was queued).
   */
  readonly resultAttempt?: number;
  /** The latest progress line of a running attempt ("turn 2: calling read"). */
  readonly activity?: string;
  /** True while a call of the running attempt waits for the operator's approval (its card is open). */
  readonly awaitingApproval?: boolean;
  /** Set on a failed worker whose failure was not the task's (see {@link WorkerFailure}). */
  readonly failure?: WorkerFailure;
  /**
   * Set on a killed worker whose last run never started: it was killed (or vibe mode or the run
   * ended) while it was queued. Its `elapsedMs` is how long it was queued.
   */
  readonly killedWhileQueued?: true;
}

/** The mutable record behind a snapshot; internal to the list. */
export interface WorkerRecord {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  /** The highest tier of the worker's tools: its spawner's cap. */
  readonly cap: Tier;
  brief: string;
  status: WorkerStatus;
  queuedAt: number;
  startedAt?: number;
  endedAt?: number;
  attempts: number;
  lastResult?: string;
  /** The attempt `lastResult` ended; 0 when that run never started (see the snapshot's). */
  resultAttempt?: number;
  activity?: string;
  /** Calls of the running attempt waiting for the operator's approval. */
  awaitingApproval: number;
  failure?: WorkerFailure;
  /**
   * What its last attempt had done when it was stopped (a CLI's output, a model's turn and calls),
   * as the backend said; part of `lastResult` too.
   */
  soFar?: string;
  /** Reads what the running attempt has done so far, when its backend gave a way (`task.soFar`). */
  readSoFar?: (stopped: boolean) => string;
  /** Set when the worker was finished while queued: its last run never started. */
  endedQueued?: boolean;
  controller?: AbortController;
  attempt?: Promise<void>;
  /** Set by vibe_send on a running worker: when the attempt stops, queue it again. */
  rerun: boolean;
  readonly waiters: Set<() => void>;
  /** The worker's sends and kills, one after another (see VibeList). */
  control: Promise<void>;
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
    ...(record.lastResult === undefined || !record.resultAttempt
      ? {}
      : { resultAttempt: record.resultAttempt }),
    ...(record.activity === undefined || record.status !== "running" ? {} : { activity: record.activity }),
    ...(record.awaitingApproval > 0 && record.status === "running" ? { awaitingApproval: true } : {}),
    ...(record.failure && record.status === "failed" ? { failure: record.failure } : {}),
    ...(record.endedQueued && record.status === "killed" ? { killedWhileQueued: true as const } : {}),
  };
}
