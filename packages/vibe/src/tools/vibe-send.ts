import { defineTool } from "@tools/registry";
import { z } from "zod";
import { vibeListKey, vibeModeOn } from "../list/vibe-list.js";
import { messageInput, workerIdInput } from "../list/worker-input.js";
import { ungatedBackend, ungatedCardText } from "./ungated-backend.js";

const description = [
  "Add to a worker's brief and run it again with the longer brief. A run in progress is",
  "cancelled first and starts over (its tool calls stop; edits it already made stay). Works on",
  "finished and killed workers too. Use it to correct course or ask for a follow-up.",
  'Example: {"worker_id": "w2", "message": "Also update the docs in README.md."}',
];

/** vibe_send: amends a worker's brief and reruns it. */
export const vibeSendTool = defineTool({
  name: "vibe_send",
  tier: "read",
  parallelSafe: true,
  description: description.join("\n"),
  input: z.object({
    worker_id: workerIdInput.describe("The id from vibe_spawn, e.g. w2."),
    message: messageInput.describe("What to add to the brief."),
  }),
  requires: [vibeListKey],
  available: vibeModeOn,
  summarize: (input) => `re-brief worker ${input.worker_id}`,
  // As vibe_spawn: a rerun of a worker that acts ungated is approved per call, at exec.
  inRun(run) {
    const backend = ungatedBackend(run);
    if (!backend) return undefined;
    return {
      tier: "exec",
      description: [
        ...description.slice(0, 3),
        `The worker runs ${backend.description}, which edits files and runs commands WITHOUT asking for`,
        "approval per action: so each vibe_send needs the operator's approval (the card shows your message).",
        ...description.slice(3),
      ].join("\n"),
      // The new message (what is being approved) first, then what there is room for of the brief
      // it is added to: a long brief never pushes the message off the card.
      summarize: (input) => {
        const worker = run.get(vibeListKey)?.find(input.worker_id);
        return ungatedCardText(backend, `re-brief worker ${input.worker_id} and run it again`, [
          { name: "New message", text: input.message },
          ...(worker ? [{ name: "Added to the brief", text: worker.brief }] : []),
        ]);
      },
    };
  },
  // An unknown id, a worker above the sender's rights, no room to rerun it: refused at once, not
  // after the operator's card (execute checks again: the list may change while the card is open).
  check(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    // A vibe_wait of this worker in the same batch waits for this re-brief, not the old result.
    // Told before the check: a send it refuses now (no room) is checked again once the caller's
    // earlier calls are over (a vibe_kill making room), and may go ahead then; refused for good,
    // its call ends at once, and with it the wait's.
    if (list.find(input.worker_id)) list.expectSend(input.worker_id, ctx.callId);
    list.checkSend(input.worker_id, { cap: ctx.surface.cap });
  },
  async execute(input, ctx) {
    const list = ctx.run.require(vibeListKey);
    // A set-up failure (a command not found, a model the server does not have) is the harness's
    // configuration, which the rerun uses as it is: said, so the lead does not wait on it blindly.
    const setupFailed = list.find(input.worker_id)?.failure === "setup";
    const { before, worker } = await list.send(input.worker_id, input.message, { cap: ctx.surface.cap });
    const what =
      before === "running"
        ? "its run in progress was cancelled and it starts over"
        : before === "queued"
          ? "it had not started yet, so it will start with the longer brief"
          : `it had ${before === "done" ? "finished" : before === "killed" ? "been killed" : before}, so it runs again`;
    const warning = setupFailed
      ? ` Its last run failed in its set-up, not in the task: it runs with the same worker configuration, so unless that was fixed since (tell the operator), it fails the same way.`
      : "";
    return `Added to ${worker.id} "${worker.label}"'s brief; ${what} (now ${worker.status}). vibe_wait ${worker.id} for the new result.${warning}`;
  },
});
