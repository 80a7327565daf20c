import { defineTool } from "@tools/registry";
import { z } from "zod";
import { formatDuration } from "../internal/format-duration.js";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { workerIdInput } from "../list/worker-input.js";
import type { WorkerSnapshot } from "../list/worker.js";
import { resultStartAndEnd, startAndEnd } from "./describe-worker.js";

/** Most characters of what a running worker has done so far that a wait which timed out shows. */
const soFarChars = 4000;

/** Default and longest wait of vibe_wait, in seconds. */
export const waitSeconds = { default: 60, max: 600 } as const;

/**
 * vibe_wait: blocks until a worker finishes, or until its timeout (every wait is bounded: 60 s by
 * default, 600 s at most); the worker goes on after a wait that timed out, and the result says how
 * to wait again.
 */
export const vibeWaitTool = defineTool({
  name: "vibe_wait",
  tier: "read",
  parallelSafe: true,
  description: [
    "Wait until a worker finishes and get its result; returns at once if it already has (after a",
    "vibe_send, also one in the same batch, the result of the new run). Each wait",
    `is bounded: timeout_seconds, default ${waitSeconds.default}, at most ${waitSeconds.max} (vibe_list checks without waiting). If the worker is not done by then,`,
    "the wait ends but the worker keeps working: the result says so and what it has done so far; vibe_wait again, or vibe_kill it.",
    `Example: {"worker_id": "w1", "timeout_seconds": ${waitSeconds.max}}`,
  ].join("\n"),
  input: z.object({
    worker_id: workerIdInput.describe("The id from vibe_spawn, e.g. w1."),
    timeout_seconds: z
      .number()
      .positive("must be more than 0: to check on a worker without waiting, call vibe_list")
      .max(waitSeconds.max, `must be at most ${waitSeconds.max} (a longer wait is several calls)`)
      .optional()
      .describe(
        `How long to wait at most, in seconds; default ${waitSeconds.default}, at most ${waitSeconds.max}. The worker keeps running after a wait that times out.`,
      ),
  }),
  requires: [vibeListKey],
  available: vibeModeOn,
  summarize: (input) => `wait for worker ${input.worker_id}`,
  async execute(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    const seconds = input.timeout_seconds ?? waitSeconds.default;
    const { finished, worker, endedBecause, soFar, sendPending } = await list.wait(input.worker_id, {
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
    });
    const name = `${worker.id} "${worker.label}" (${worker.tier})`;
    if (endedBecause !== undefined)
      return `${name} is ${worker.status}, but this wait ended early: ${endedBecause}. The worker ends with the run.`;
    if (!finished) {
      const state =
        worker.status === "queued"
          ? "is still queued (waiting for a free slot)"
          : worker.awaitingApproval
            ? "is waiting for the operator's approval"
            : "is still running";
      const waited = `${formatDuration(seconds * 1000)}${input.timeout_seconds === undefined ? ", the default wait" : ""}`;
      const activity = worker.activity ? ` (${worker.activity})` : "";
      const again = JSON.stringify({ worker_id: worker.id, timeout_seconds: waitSeconds.max });
      const answer = [
        `${name} ${state}: only this wait ended (after ${waited}); the worker keeps working in the background.`,
        `Elapsed ${formatDuration(worker.elapsedMs)}${activity}.`,
        `To wait longer: vibe_wait ${again} (${waitSeconds.max} s is the most one call waits). Or carry on and check with vibe_list, or vibe_kill ${worker.id} to stop it.`,
      ].join(" ");
      // A re-brief not in effect yet: what it is doing is the run it was sent to change.
      const pending = sendPending
        ? ` ${sendNotInEffect(sendPending)}: what is said here is from before it.`
        : "";
      // How far it is: what it has done so far (its start and end when long).
      return soFar
        ? `${answer}${pending}\n\n${startAndEnd(soFar, soFarChars, "what it has done so far")}`
        : `${answer}${pending}`;
    }
    const result = resultStartAndEnd(worker, 20_000);
    // A re-brief not approved yet: the result below is the one it was sent after.
    const before = sendPending ? `. ${sendNotInEffect(sendPending)}: this result is from before it` : "";
    switch (worker.status) {
      case "done":
        return `${name} is done after ${formatDuration(worker.elapsedMs)}${before}. Its result:\n\n${result}`;
      case "failed":
        return `${name} failed after ${formatDuration(worker.elapsedMs)}${before}: ${result}\n${failureAdvice(worker)}`;
      default:
        // Killed while queued: it did not run at all, and its elapsed time is its wait.
        return worker.killedWhileQueued
          ? `${name} was killed before ${worker.attempts === 0 ? "it" : "its new run"} started (queued for ${formatDuration(worker.elapsedMs)})${before}: ${result}`
          : `${name} was killed after ${formatDuration(worker.elapsedMs)}${before}: ${result}`;
    }
  },
});

/** A vibe_send sent before the wait and not in effect as it ends, and what it waits for. */
function sendNotInEffect(pending: "approval" | "other"): string {
  return pending === "approval"
    ? "A vibe_send to it still waits for the operator's approval"
    : "A vibe_send to it has not taken effect yet";
}

/** What the lead can do about a failed worker, by what failed: the set-up, the model server, or the task. */
function failureAdvice(worker: WorkerSnapshot): string {
  switch (worker.failure) {
    case "setup":
      return "A retry cannot help (vibe_send reruns it with the same configuration): the harness's worker configuration must be fixed first, so tell the operator, and do the work yourself meanwhile.";
    case "unavailable":
      return `The model server failed, not the task, so the brief needs no change: vibe_send ${worker.id} (e.g. "Try again.") reruns it, which may work once the server answers again; or do the work yourself.`;
    default:
      return `vibe_send ${worker.id} to retry with more guidance, or do it yourself.`;
  }
}
