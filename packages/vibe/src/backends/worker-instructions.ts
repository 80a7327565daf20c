import { countNoun } from "@tools/registry";
import { VibeError } from "../errors/vibe-error.js";
import type { CallTally } from "./call-tally.js";

/** The system prompt a model backend gives every worker, unless configured otherwise. */
export const defaultWorkerInstructions = [
  "You are a background worker of a coding agent. The lead agent gave you the brief below; do it",
  "with the tools you have, in the working directory, without asking questions (you have no",
  "ask_user): where the brief leaves a choice open, make the reasonable one and say so.",
  "Your write and exec calls go to the operator for approval. If one is denied, do not repeat it:",
  "choose another approach or report what you could not do.",
  "When you are done, answer without calling tools. That answer is your result for the lead:",
  "what you did, which files you changed, what you assumed, and anything left open.",
].join("\n");

/**
 * Why a vibe worker on a model backend gave up: the turn limit, what it did (`done`, a
 * {@link CallTally} summary) and what to do about it. Raised as `TURN_LIMIT` with `data`
 * `{ maxTurns, done }`, so a host that is not a vibe worker can say it its own way.
 */
export function modelTurnLimit(maxTurns: number, label: string, done: string): string {
  return `worker '${label}' stopped after ${maxTurns} ${countNoun(maxTurns, "model turns")} without a final answer (it did ${done}); re-brief it with a narrower task or a smaller first step (vibe_send), or split the work between workers. The turn limit is the harness's setting (the backend's maxTurns), which only the operator can raise: if the task needs more turns, say so in your answer`;
}

/** The `TURN_LIMIT` error of a model backend, with `data` `{ maxTurns, done }`. */
export function turnLimitError(maxTurns: number, label: string, tally: CallTally): VibeError {
  const done = tally.summary();
  return new VibeError({
    code: "TURN_LIMIT",
    message: modelTurnLimit(maxTurns, label, done),
    data: { maxTurns, done },
  });
}
