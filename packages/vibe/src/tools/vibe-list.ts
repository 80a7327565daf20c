import { countNoun, defineTool } from "@tools/registry";
import { z } from "zod";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { boundedResult, workerLine } from "./describe-worker.js";

/** Most characters of each worker's last result that vibe_list shows. */
export const listResultChars = 300;

/** vibe_list: every worker with tier, status, elapsed time and a bounded last result. */
export const vibeListTool = defineTool({
  name: "vibe_list",
  tier: "read",
  parallelSafe: true,
  description: [
    `List every background worker: id, label, tier, status (queued, running, done, failed, killed), elapsed time and the start of its last result (${listResultChars} characters; vibe_wait gives the whole result).`,
    "Example: {}",
  ].join("\n"),
  input: z.object({}),
  requires: [vibeListKey],
  available: vibeModeOn,
  execute(_input, ctx) {
    const list = ctx.run.require(vibeListKey);
    const workers = list.list();
    if (workers.length === 0) return "No workers yet. Start one with vibe_spawn.";
    const running = workers.filter((worker) => worker.status === "running").length;
    const lines = [
      `${workers.length} ${countNoun(workers.length, "workers")}, ${running} running (at most ${list.concurrency} at once):`,
    ];
    for (const worker of workers) {
      lines.push(`- ${workerLine(worker)}`);
      const result = boundedResult(worker, listResultChars);
      if (result) lines.push(`  last result: ${result.replace(/\n/g, "\n  ")}`);
    }
    return lines.join("\n");
  },
});
