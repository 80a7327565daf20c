import { ToolsError, errorMessage } from "@tools/registry";
import type { Card } from "../card/card.js";
import { checkReply } from "../card/reply.js";
import { renderCard } from "../card/render-card.js";
import { AskError } from "../errors/ask-error.js";
import type { QuestionPort, TargetSpace } from "../port/question-port.js";

/**
 * How a question ended. Only `answered` carries an answer; the others say why there is none,
 * and a caller must never report them as one.
 */
export type AskOutcome =
  | { readonly kind: "answered"; readonly selected: readonly string[]; readonly text?: string }
  | { readonly kind: "declined"; readonly reason?: string }
  | { readonly kind: "timed_out"; readonly timeoutMs: number }
  | { readonly kind: "no_human" }
  | { readonly kind: "cancelled"; readonly reason: string };

let cardCounter = 0;

/**
 * Shows `card` through `port` in `target` and waits for the outcome. Never blocks without a
 * human: when the port is not attached it returns `no_human` at once. The card's own
 * `timeoutMs` bounds the wait; `signal` (the call's) cancels it. A port that fails, or replies
 * with something not on the card, throws `ASK_PORT_FAILED` / `ASK_INVALID_REPLY`.
 */
export async function askCard(
  port: QuestionPort,
  target: TargetSpace,
  card: Card,
  signal?: AbortSignal,
): Promise<AskOutcome> {
  if (!port.attached()) return { kind: "no_human" };
  if (signal?.aborted) return { kind: "cancelled", reason: errorMessage(signal.reason) };
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    card.timeoutMs === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new AskError({ code: "ASK_TIMED_OUT", message: "the question timed out" }));
        }, card.timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  // Settles on abort even if a port ignores its signal.
  const aborted = new Promise<"aborted">((resolve) => {
    controller.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  const request = { id: `card_${++cardCounter}`, target, card, text: renderCard(card) };
  const asked = Promise.resolve().then(() => port.ask(request, controller.signal));
  try {
    const reply = await Promise.race([asked, aborted]);
    if (reply === "aborted") {
      asked.catch(() => undefined);
      return abortedOutcome(card, timedOut, signal);
    }
    const checked = checkReply(card, reply);
    if (checked.kind === "decline")
      return checked.reason ? { kind: "declined", reason: checked.reason } : { kind: "declined" };
    return checked.text
      ? { kind: "answered", selected: checked.selected, text: checked.text }
      : { kind: "answered", selected: checked.selected };
  } catch (error) {
    if (controller.signal.aborted) return abortedOutcome(card, timedOut, signal);
    if (ToolsError.isInstance(error) && error.code === "ASK_NO_HUMAN") return { kind: "no_human" };
    if (ToolsError.isInstance(error) && error.code === "ASK_INVALID_REPLY") throw error;
    throw new AskError({
      code: "ASK_PORT_FAILED",
      message: `the question could not be shown: the question port failed (${errorMessage(error)})`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted)
      controller.abort(new AskError({ code: "ASK_CANCELLED", message: "the question is over" }));
  }
}

function abortedOutcome(card: Card, timedOut: boolean, signal: AbortSignal | undefined): AskOutcome {
  if (timedOut && card.timeoutMs !== null) return { kind: "timed_out", timeoutMs: card.timeoutMs };
  return { kind: "cancelled", reason: signal?.aborted ? errorMessage(signal.reason) : "cancelled" };
}
