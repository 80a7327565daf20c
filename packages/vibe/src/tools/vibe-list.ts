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
    const header = `${workers.length} ${countNoun(workers.length, "workers")}, ${running} running (at most ${list.concurrency} at once, ${list.maxActive} queued or running):`;
    const blocks = new Map(pickShown(workers).map((worker) => [worker, workerBlock(worker)]));
    const answer = (): string => {
      const lines = [header, ...blocks.values()];
      const left = workers.filter((worker) => !blocks.has(worker)).map((worker) => worker.id);
      if (left.length > 0) {
        const named = boundList(left, 20, "more").items.join(", ");
        lines.push(
          `… ${left.length} older finished ${countNoun(left.length, "workers")} not shown (${named}${left.length > 20 ? ", …" : ""}); vibe_wait with one's id gives its status and whole result.`,
        );
      }
      return lines.join("\n");
    };
    // Over the bound, the oldest finished workers give way, counted in the last line: a cut at the
    // end would lose the newest workers (running ones too) and that count.
    let text = answer();
    while (text.length > listMaxChars || text.split("\n").length > listMaxLines) {
      const oldest = [...blocks.keys()].find((worker) => isFinished(worker.status));
      if (oldest === undefined) break;
      blocks.delete(oldest);
      text = answer();
    }
    // Cut between whole characters: half an emoji at the cut would go to the model server.
    return boundWholeText(text, { maxChars: listMaxChars, maxLines: listMaxLines });
  },
});

/** Most workers vibe_list shows, and most characters and lines of its whole answer. */
const listMaxWorkers = 30;
const listMaxChars = 16_000;
const listMaxLines = 400;

/** A worker's lines in the list: its line, and its last result under it. */
function workerBlock(worker: WorkerSnapshot): string {
  const result = resultStartAndEnd(worker, listResultChars);
  return result
    ? `- ${workerLine(worker)}\n  ${resultName(worker)}: ${result.replace(/\n/g, "\n  ")}`
    : `- ${workerLine(worker)}`;
}

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
