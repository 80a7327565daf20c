import { headOf } from "@tools/registry";
import type { VibeList, WorkerFailure, WorkerSnapshot, WorkerStatus, WorkerTier } from "@tools/vibe";

/** What happened to a background worker, as the operator is told. */
export type WorkerNoticeKind = "queued" | "started" | "progress" | "done" | "failed" | "killed";

/** One change of a background worker worth showing the operator. */
export interface WorkerNotice {
  readonly kind: WorkerNoticeKind;
  readonly worker: WorkerSnapshot;
  /** The notice in one line, as the terminal shows it. */
  readonly text: string;
}

/**
 * The worker event line of `serve --operator jsonl`: one per {@link WorkerNotice}. `result` (the
 * worker's answer, or why it failed or was killed) is on `done`, `failed` and `killed`; `activity`
 * (its latest progress line) and `awaiting_approval` on `progress`.
 */
export interface WorkerEventLine {
  readonly event: "worker";
  readonly kind: WorkerNoticeKind;
  readonly worker_id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly status: WorkerStatus;
  readonly attempt: number;
  readonly elapsed_ms: number;
  readonly activity?: string;
  readonly awaiting_approval?: boolean;
  readonly result?: string;
  readonly failure?: WorkerFailure;
  readonly text: string;
}

/** Most characters of a result's first line in a notice's text (the JSON line carries it whole). */
const resultLineChars = 160;

/**
 * Follows `list`'s workers and calls `notify` for each change the operator should see: a worker
 * queued (waiting for a slot), started (or started again by a vibe_send), its progress line or a
 * card of its opened (coalesced by the list: at most one a worker per its `activityIntervalMs`, the
 * last one before it ends), and how it ended. Returns the function that stops following.
 */
export function followWorkers(list: VibeList, notify: (notice: WorkerNotice) => void): () => void {
  /** What was last shown of each worker: its status, and its progress line while it runs. */
  const shown = new Map<string, { status: WorkerStatus; attempt: number; progress?: string }>();
  const tell = (kind: WorkerNoticeKind, worker: WorkerSnapshot): void => {
    try {
      notify({ kind, worker, text: noticeText(kind, worker) });
    } catch {
      // A broken notifier must not break the list's other listeners.
    }
  };
  return list.on(({ type, worker }) => {
    const last = shown.get(worker.id);
    if (type === "activity") {
      if (worker.status !== "running") return;
      const progress = progressText(worker);
      if (progress === undefined || (last?.progress === progress && last.attempt === worker.attempts)) return;
      shown.set(worker.id, { status: worker.status, attempt: worker.attempts, progress });
      tell("progress", worker);
      return;
    }
    if (last?.status === worker.status && last.attempt === worker.attempts) return;
    shown.set(worker.id, { status: worker.status, attempt: worker.attempts });
    if (worker.status === "queued") {
      // A worker with a free slot starts in the same turn: only one still queued after it waits.
      queueMicrotask(() => {
        if (shown.get(worker.id)?.status === "queued") tell("queued", worker);
      });
      return;
    }
    tell(worker.status === "running" ? "started" : worker.status, worker);
  });
}

/** The notice as one JSON line of `serve --operator jsonl`. */
export function workerEventLine(notice: WorkerNotice): WorkerEventLine {
  const { worker, kind } = notice;
  const progress = kind === "progress";
  const ended = kind === "done" || kind === "failed" || kind === "killed";
  return {
    event: "worker",
    kind,
    worker_id: worker.id,
    label: worker.label,
    tier: worker.tier,
    status: worker.status,
    attempt: worker.attempts,
    elapsed_ms: Math.round(worker.elapsedMs),
    ...(progress && worker.activity !== undefined ? { activity: worker.activity } : {}),
    ...(progress ? { awaiting_approval: worker.awaitingApproval === true } : {}),
    ...(ended && worker.lastResult !== undefined ? { result: worker.lastResult } : {}),
    ...(worker.failure === undefined ? {} : { failure: worker.failure }),
    text: notice.text,
  };
}

/** `worker w1 "fix tests" (fast)`: as a card names the worker. */
function workerName(worker: WorkerSnapshot): string {
  return `worker ${worker.id} "${worker.label}" (${worker.tier})`;
}

/** A running worker's progress line, and whether a card of its waits for the operator. */
function progressText(worker: WorkerSnapshot): string | undefined {
  const waiting = worker.awaitingApproval === true ? "waiting for the operator's approval" : undefined;
  if (worker.activity === undefined) return waiting;
  return waiting === undefined ? worker.activity : `${worker.activity}; ${waiting}`;
}

/** The notice's one line. */
function noticeText(kind: WorkerNoticeKind, worker: WorkerSnapshot): string {
  const name = workerName(worker);
  const again = worker.attempts > 1 ? ` again (attempt ${worker.attempts})` : "";
  switch (kind) {
    case "queued":
      return `${name} queued${again === "" ? "" : " to run again"}: every worker slot is busy`;
    case "started":
      return `${name} started${again}`;
    case "progress":
      return `${name} … ${progressText(worker) ?? ""}`;
    default: {
      const after = worker.killedWhileQueued
        ? `before it started (queued ${seconds(worker.elapsedMs)})`
        : `after ${seconds(worker.elapsedMs)}`;
      const result = firstLine(worker.lastResult ?? "");
      return `${name} ${kind === "done" ? "is done" : kind} ${after}${result === "" ? "" : `: ${result}`}`;
    }
  }
}

/** `2.1 s`. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The first line of a result with text on it, cut to {@link resultLineChars}; `…` when more follows. */
function firstLine(text: string): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const first = lines[0]?.trim() ?? "";
  if (first.length > resultLineChars) return `${headOf(first, resultLineChars - 1)}…`;
  return lines.length > 1 ? `${first} …` : first;
}
