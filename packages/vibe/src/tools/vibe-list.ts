import { boundList, countNoun, defineTool } from "@tools/registry";
import { z } from "zod";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { boundWholeText } from "../internal/whole-characters.js";
import { isFinished, type WorkerSnapshot } from "../list/worker.js";
import { resultStartAndEnd, workerLine } from "./describe-worker.js";

/** Most characters of each worker's last result that vibe_list shows. */
export const listResultChars = 300;

/** vibe_list: every worker with tier, status, elapsed time and its last result, bounded (its start and end). */
export const vibeListTool = defineTool({
  name: "vibe_list",
  tier: "read",
  parallelSafe: true,
  description: [
    `List every background worker: id, label, tier, status (queued, running, done, failed, killed), elapsed time and its last result (at most ${listResultChars} characters: of a longer one its start and its end; vibe_wait gives the whole result; while a rerun of it runs, its previous run's, named so). With many workers, the older finished ones are only counted.`,
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
    const shown = pickShown(workers);
    const lines = [
      `${workers.length} ${countNoun(workers.length, "workers")}, ${running} running (at most ${list.concurrency} at once, ${list.maxActive} queued or running):`,
    ];
    for (const worker of shown) {
      lines.push(`- ${workerLine(worker)}`);
      const result = resultStartAndEnd(worker, listResultChars);
      if (result) lines.push(`  ${resultName(worker)}: ${result.replace(/\n/g, "\n  ")}`);
    }
    const left = workers.length - shown.length;
    if (left > 0) {
      const ids = workers.filter((worker) => !shown.includes(worker)).map((worker) => worker.id);
      const named = boundList(ids, 20, "more").items.join(", ");
      lines.push(
        `… ${left} older finished ${countNoun(left, "workers")} not shown (${named}${ids.length > 20 ? ", …" : ""}); vibe_wait with one's id gives its status and whole result.`,
      );
    }
    // Cut between whole characters: half an emoji at the cut would go to the model server.
    return boundWholeText(lines.join("\n"), { maxChars: listMaxChars, maxLines: 400 });
  },
});

/** Most workers vibe_list shows, and most characters of its whole answer. */
const listMaxWorkers = 30;
const listMaxChars = 16_000;

/**
 * The workers vibe_list shows, in spawn order: every queued or running one, then the most recent
 * finished ones up to {@link listMaxWorkers}.
 */
function pickShown(workers: WorkerSnapshot[]): WorkerSnapshot[] {
  if (workers.length <= listMaxWorkers) return workers;
  const active = workers.filter((worker) => !isFinished(worker.status));
  const room = Math.max(0, listMaxWorkers - active.length);
  const finished = workers.filter((worker) => isFinished(worker.status));
  const keep = new Set([...active, ...(room > 0 ? finished.slice(-room) : [])]);
  return workers.filter((worker) => keep.has(worker));
}

/**
 * What a worker's result is called in the list: its last result once it finished; while a rerun
 * (vibe_send) is queued or running, the result of its previous run, which the rerun may change.
 */
function resultName(worker: WorkerSnapshot): string {
  if (isFinished(worker.status)) return "last result";
  // The attempt that ended with it: a rerun cut short by another vibe_send left none of its own.
  return worker.resultAttempt === undefined
    ? "result of its previous run (which never started)"
    : `result of its previous run (attempt ${worker.resultAttempt})`;
}
