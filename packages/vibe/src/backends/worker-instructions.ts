import { countNoun } from "@tools/registry";

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

/** Why a model backend gave up: the turn limit, and what to do about it. */
export function modelTurnLimit(maxTurns: number, label: string): string {
  return `worker '${label}' stopped after ${maxTurns} ${countNoun(maxTurns, "model turns")} without a final answer; re-brief it with a narrower task (vibe_send) or raise the backend's maxTurns`;
}
