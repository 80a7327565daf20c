import { defineTool } from "@tools/registry";
import { z } from "zod";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { workerIdInput } from "../list/worker-input.js";
import { startAndEnd } from "./describe-worker.js";

/** Most characters of what a killed worker had done that vibe_kill shows (vibe_wait shows more). */
const killSoFarChars = 4000;

/** vibe_kill: stops a worker and everything it started. */
export const vibeKillTool = defineTool({
  name: "vibe_kill",
  tier: "read",
  parallelSafe: true,
  description: [
    "Stop a worker and everything it started (its model request, tool calls and processes). Edits",
    "it already made stay. A queued worker never starts. vibe_send can start it again later.",
    'Example: {"worker_id": "w3"}',
  ].join("\n"),
  input: z.object({ worker_id: workerIdInput.describe("The id from vibe_spawn, e.g. w3.") }),
  requires: [vibeListKey],
  available: vibeModeOn,
  summarize: (input) => `kill worker ${input.worker_id}`,
  // An unknown id is refused before any approval card a gated surface would open.
  check(input, ctx) {
    ctx.run.require(vibeListKey).get(input.worker_id);
  },
  async execute(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    const { before, worker, wasFinished, stoppedInTime, soFar } = await list.kill(input.worker_id);
    const name = `${worker.id} "${worker.label}"`;
    if (before === "queued")
      return `Killed ${name} while it was queued: ${worker.attempts === 0 ? "it never started, so it changed nothing" : "its new run never started (what its earlier runs did stays)"}.`;
    if (wasFinished)
      return `${name} had already ${worker.status === "killed" ? "been killed" : `finished (${worker.status})`}; nothing to stop.`;
    if (!stoppedInTime)
      return `Killed ${name}: it was told to stop but had not stopped when the wait ended; what it started may still be ending. It counts as killed, and ends with the run at the latest.`;
    // What it had done until now (edits stay), bounded: its start and its end.
    const done = soFar ? ` ${startAndEnd(soFar, killSoFarChars, "what it had done by then")}` : "";
    return `Killed ${name}; it and everything it started have stopped.${done}`;
  },
});
