import { countNoun, headOf, tailOf } from "@tools/registry";
import { formatDuration } from "../internal/format-duration.js";
import type { WorkerSnapshot } from "../list/worker.js";

/** One line per worker: `w1 "fix the tests" (fast) running 12.3s — turn 2: calling read`. */
export function workerLine(worker: WorkerSnapshot): string {
  const timing =
    worker.status === "queued"
      ? `queued ${formatDuration(worker.elapsedMs)}`
      : worker.killedWhileQueued
        ? `killed before it started (queued ${formatDuration(worker.elapsedMs)})`
        : `${worker.status} ${formatDuration(worker.elapsedMs)}`;
  const rerun = worker.attempts > 1 ? `, attempt ${worker.attempts}` : "";
  const waiting = worker.awaitingApproval ? "waiting for the operator's approval" : "";
  const activity = [worker.activity, waiting].filter(Boolean).join("; ");
  return `${worker.id} "${worker.label}" (${worker.tier}${rerun}) ${timing}${activity ? ` — ${activity}` : ""}`;
}

/** The worker's last result as shown: "(empty answer)" for a blank one; undefined when it has none. */
function resultText(worker: WorkerSnapshot): string | undefined {
  if (worker.lastResult === undefined) return undefined;
  return worker.lastResult.trim() === "" ? "(empty answer)" : worker.lastResult;
}

/** Most lines of a result shown in `maxChars` characters. */
function linesFor(maxChars: number): number {
  return Math.max(5, Math.floor(maxChars / 50));
}

/**
 * The worker's whole last result when it fits `maxChars` (and `maxChars / 50` lines), else its
 * start and its end with a line between them counting what was left out: the end of a result is
 * often its point (the final answer an agent CLI prints last).
 */
export function resultStartAndEnd(worker: WorkerSnapshot, maxChars: number): string {
  const text = resultText(worker);
  return text === undefined ? "" : startAndEnd(text, maxChars, "the result");
}

/**
 * `text` whole when it fits `maxChars` (and `maxChars / 50` lines), else its start and its end
 * with a line between them counting what was left out "of `what`" (the result, what a running
 * worker has done so far).
 */
export function startAndEnd(text: string, maxChars: number, what: string): string {
  const maxLines = linesFor(maxChars);
  const lines = text.split("\n");
  if (text.length <= maxChars && lines.length <= maxLines) return text;
  // A quarter of the room for the start, the rest for the end; the two never overlap, since
  // together they hold fewer characters or lines than the text has.
  const headLines = Math.floor(maxLines / 4);
  const headChars = Math.floor(maxChars / 4);
  // Cut at whole characters: never half of an emoji.
  const head = headOf(lines.slice(0, headLines).join("\n"), headChars);
  const tail = tailOf(lines.slice(-(maxLines - headLines)).join("\n"), maxChars - headChars);
  const leftChars = text.length - head.length - tail.length;
  const leftLines = Math.max(0, lines.length - head.split("\n").length - tail.split("\n").length);
  const left =
    leftLines > 0
      ? `${leftLines} ${countNoun(leftLines, "lines")} (${leftChars} ${countNoun(leftChars, "characters")})`
      : `${leftChars} ${countNoun(leftChars, "characters")}`;
  return `${head}\n… ${left} of ${what} left out here …\n${tail}`;
}
