import { boundText } from "@tools/registry";
import { formatDuration } from "../internal/format-duration.js";
import type { WorkerSnapshot } from "../list/worker.js";

/** One line per worker: `w1 "fix the tests" (fast) running 12.3s — turn 2: calling read`. */
export function workerLine(worker: WorkerSnapshot): string {
  const timing =
    worker.status === "queued"
      ? `queued ${formatDuration(worker.elapsedMs)}`
      : `${worker.status} ${formatDuration(worker.elapsedMs)}`;
  const rerun = worker.attempts > 1 ? `, attempt ${worker.attempts}` : "";
  const waiting = worker.awaitingApproval ? "waiting for the operator's approval" : "";
  const activity = [worker.activity, waiting].filter(Boolean).join("; ");
  return `${worker.id} "${worker.label}" (${worker.tier}${rerun}) ${timing}${activity ? ` — ${activity}` : ""}`;
}

/** The worker's last result cut to `maxChars` (and 40 lines), or empty when it has none. */
export function boundedResult(worker: WorkerSnapshot, maxChars: number): string {
  if (worker.lastResult === undefined) return "";
  const text = worker.lastResult.trim() === "" ? "(empty answer)" : worker.lastResult;
  return boundText(text, { maxChars, maxLines: Math.max(5, Math.floor(maxChars / 50)) }).text;
}
