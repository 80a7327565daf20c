import { stateKey, type Run } from "@tools/registry";
import type { Card } from "../card/card.js";

/** What a decline left: its reason, if the operator gave one. */
interface Decline {
  readonly reason?: string;
}

/**
 * The questions the operator declined in a run, by asker, question and context. A decline tells
 * the model not to ask again; one that asks anyway gets the decline back, and the operator is not
 * asked twice. The context is part of the question: a generic "Proceed?" declined for one step is
 * asked for the next.
 */
const declinedKey = stateKey("questions the operator declined", () => new Map<string, Decline>());

/** The same text, however its spaces and letter case were written. */
function normalized(text: string | undefined): string {
  return (text ?? "").trim().replace(/\s+/g, " ").toLowerCase();
}

/** One key for the same question from the same asker (its options aside). */
function questionKey(card: Card): string {
  return [card.caller ?? "", normalized(card.question), normalized(card.context)].join("\u0000");
}

/** The earlier decline of this card's question in the run, if there was one. */
export function earlierDecline(run: Run, card: Card): Decline | undefined {
  return run.state(declinedKey).get(questionKey(card));
}

/** Remembers that the operator declined this card's question. */
export function rememberDecline(run: Run, card: Card, decline: Decline): void {
  run.state(declinedKey).set(questionKey(card), decline);
}
