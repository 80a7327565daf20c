import { stateKey, type Run } from "@tools/registry";

/** What a decline left: its reason, if the operator gave one. */
interface Decline {
  readonly reason?: string;
}

/**
 * The questions the operator declined in a run, by asker and question. A decline tells the model
 * not to ask again; one that asks anyway gets the decline back, and the operator is not asked twice.
 */
const declinedKey = stateKey("questions the operator declined", () => new Map<string, Decline>());

/** One key for the same question, however its spaces and letter case were written. */
function questionKey(question: string, caller: string | undefined): string {
  return `${caller ?? ""}\u0000${question.trim().replace(/\s+/g, " ").toLowerCase()}`;
}

/** The earlier decline of this question by this asker in the run, if there was one. */
export function earlierDecline(run: Run, question: string, caller?: string): Decline | undefined {
  return run.state(declinedKey).get(questionKey(question, caller));
}

/** Remembers that the operator declined this question from this asker. */
export function rememberDecline(
  run: Run,
  question: string,
  caller: string | undefined,
  decline: Decline,
): void {
  run.state(declinedKey).set(questionKey(question, caller), decline);
}
