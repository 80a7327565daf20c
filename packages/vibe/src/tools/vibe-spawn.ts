import { countNoun, defineTool } from "@tools/registry";
import { z } from "zod";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { briefInput, labelInput, tierInput } from "../list/worker-input.js";
import { ungatedBackend, ungatedCardText } from "./ungated-backend.js";

const example =
  'Example: {"brief": "Rename getUser to fetchUser in src/api and update its callers; run the tests.", "label": "rename getUser"}';
const tierText = [
  "tier: 'fast' (default) for mechanical work with a clear spec, 'good' for design, judgement,",
  "or reviewing a fast worker's output. Write a self-contained brief: the worker sees nothing",
  "of this conversation. Then vibe_wait for its result, or vibe_list to check on it.",
];

/** vibe_spawn: starts a background worker and returns its id at once. */
export const vibeSpawnTool = defineTool({
  name: "vibe_spawn",
  tier: "read",
  parallelSafe: true,
  description: [
    "Start a background worker on a task and get its id at once; it keeps working while you do.",
    "The worker has this run's tools, at most those you have (spawned from plan mode it only",
    "reads); its edits and commands go to the operator for approval.",
    ...tierText,
    example,
  ].join("\n"),
  input: z.object({
    brief: briefInput.describe("The whole task, self-contained: goal, files, constraints, how to check it."),
    label: labelInput.describe("A short name for the worker, shown in vibe_list."),
    tier: tierInput.optional().describe("fast (default) or good."),
  }),
  requires: [vibeListKey],
  available: vibeModeOn,
  summarize: (input) => `spawn ${input.tier ?? "fast"} worker "${input.label}"`,
  // A worker that acts ungated (an agent CLI doing its own edits): the spawn itself is the only
  // approval there is, so it is an exec call, approved each time and not offered to read-only surfaces.
  inRun(run) {
    const backend = ungatedBackend(run);
    if (!backend) return undefined;
    return {
      tier: "exec",
      description: [
        `Start a background worker on a task and get its id at once; it keeps working while you do. The worker runs ${backend.description}:`,
        "an agent that edits files and runs commands itself, WITHOUT asking for approval per action.",
        "So each vibe_spawn needs the operator's approval (the card shows your brief).",
        ...tierText,
        example,
      ].join("\n"),
      // "UNGATED" first and the whole summary within the card's bound: a long command or brief
      // never folds the warning out of sight.
      summarize: (input) =>
        ungatedCardText(backend, `spawn ${input.tier ?? "fast"} worker "${input.label}"`, [
          { name: "Brief", text: input.brief },
        ]),
    };
  },
  // At the worker limit (or with vibe mode off): refused at once, not after the operator's card.
  check(_input, ctx) {
    ctx.run.require(vibeListKey).checkSpawn();
  },
  execute(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    const worker = list.spawn({
      brief: input.brief,
      label: input.label,
      ...(input.tier ? { tier: input.tier } : {}),
      cap: ctx.surface.cap,
    });
    // A new worker queues last: every other queued worker starts before it.
    const ahead = list.list().filter((other) => other.status === "queued" && other.id !== worker.id).length;
    const where =
      worker.status === "running"
        ? "is running"
        : `is queued: ${list.concurrency} ${countNoun(list.concurrency, "workers")} already ${list.concurrency === 1 ? "runs" : "run"} (the limit)${
            ahead === 0
              ? "; it starts when one finishes"
              : ` and ${ahead} queued ${ahead === 1 ? "worker starts" : "workers start"} before it; it starts when ${ahead + 1} ${countNoun(ahead + 1, "workers")} have finished`
          }`;
    // Labels may clash: said, so the lead calls them by id (the operator sees two alike).
    const alike = list
      .list()
      .filter((other) => other.label === worker.label && other.id !== worker.id)
      .map((other) => other.id);
    const clash =
      alike.length === 0
        ? ""
        : ` ${alike.slice(0, 10).join(", ")}${alike.length > 10 ? ` and ${alike.length - 10} more` : ""} ${alike.length === 1 ? "is" : "are"} labelled "${worker.label}" too: call the workers by their ids (${worker.id} is this one).`;
    return `Spawned ${worker.id} "${worker.label}" (${worker.tier}); it ${where}. Carry on with your own work; vibe_wait ${worker.id} for its result.${clash}`;
  },
});
