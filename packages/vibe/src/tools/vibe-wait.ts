import { defineTool } from "@tools/registry";
import { z } from "zod";
import { formatDuration } from "../internal/format-duration.js";
import { vibeListKey } from "../list/vibe-list.js";
import { boundedResult } from "./describe-worker.js";

/** Default and longest wait of vibe_wait, in seconds. */
export const waitSeconds = { default: 60, max: 600 } as const;

/** vibe_wait: blocks until a worker finishes or the timeout passes. */
export const vibeWaitTool = defineTool({
  name: "vibe_wait",
  tier: "read",
  parallelSafe: true,
  description: [
    "Wait until a worker finishes and get its result; returns at once if it already has. After",
    `timeout_seconds (default ${waitSeconds.default}, at most ${waitSeconds.max}) it returns and says the worker is still`,
    "running; wait again, or vibe_kill it.",
    'Example: {"worker_id": "w1", "timeout_seconds": 120}',
  ].join("\n"),
  input: z.object({
    worker_id: z.string().min(1).describe("The id from vibe_spawn, e.g. w1."),
    timeout_seconds: z
      .number()
      .positive()
      .max(waitSeconds.max)
      .optional()
      .describe(`How long to wait at most, in seconds; default ${waitSeconds.default}.`),
  }),
  requires: [vibeListKey],
  summarize: (input) => `wait for worker ${input.worker_id}`,
  async execute(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    const seconds = input.timeout_seconds ?? waitSeconds.default;
    const { finished, worker } = await list.wait(input.worker_id, {
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
    });
    const name = `${worker.id} "${worker.label}" (${worker.tier})`;
    if (!finished) {
      const state = worker.status === "queued" ? "is still queued" : "is still running";
      const activity = worker.activity ? ` (${worker.activity})` : "";
      return `${name} ${state} after ${formatDuration(seconds * 1000)} of waiting; elapsed ${formatDuration(worker.elapsedMs)}${activity}. vibe_wait again, or vibe_kill ${worker.id}.`;
    }
    const result = boundedResult(worker, 20_000);
    switch (worker.status) {
      case "done":
        return `${name} is done after ${formatDuration(worker.elapsedMs)}. Its result:\n\n${result}`;
      case "failed":
        return `${name} failed after ${formatDuration(worker.elapsedMs)}: ${result}\nvibe_send ${worker.id} to retry with more guidance, or do it yourself.`;
      default:
        return `${name} was killed after ${formatDuration(worker.elapsedMs)}: ${result}`;
    }
  },
});
