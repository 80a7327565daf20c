import { ToolsError, errorMessage } from "@tools/registry";
import type { Card } from "../card/card.js";
import { checkReply } from "../card/reply.js";
import { renderCard } from "../card/render-card.js";
import { AskError } from "../errors/ask-error.js";
import { formatDuration } from "../internal/duration.js";
import type { CardEvents, QuestionPort, TargetSpace } from "../port/question-port.js";

/**
 * How a question ended. Only `answered` carries an answer; the others say why there is none,
 * and a caller must never report them as one.
 */
export type AskOutcome =
  | {
      readonly kind: "answered";
      readonly selected: readonly string[];
      readonly text?: string;
      /** Set when the answer is a secret that went to the caller out of band: `text` is then absent. */
      readonly secret?: true;
    }
  | { readonly kind: "declined"; readonly reason?: string }
  | {
      readonly kind: "timed_out";
      readonly timeoutMs: number;
      /** Set when the card was never in front of the human: it waited `timeoutMs` behind other cards. */
      readonly neverShown?: true;
    }
  | {
      readonly kind: "no_human";
      /**
       * Absent: the question was never shown (nobody was attached). Set: the port had the card
       * when the human's channel closed before an answer — `shown` when the port reported it
       * drawn, `sent` when the port cannot tell (it does not report it, {@link QuestionPort.reportsShown}).
       */
      readonly reached?: "shown" | "sent";
      /**
       * The port's word on how the channel closed ("the terminal closed before an answer"; never
       * shown: "the terminal closed before the card was shown"). Absent when nobody was attached.
       */
      readonly reason?: string;
    }
  | { readonly kind: "cancelled"; readonly reason: string };

let cardCounter = 0;

/**
 * Shows `card` through `port` in `target` and waits for the outcome. Never blocks without a
 * human: when the port is not attached it returns `no_human` at once. The card's own
 * `timeoutMs` bounds the wait for an answer, counted from when the card is drawn if the port
 * reports that ({@link QuestionPort.reportsShown}: a card queued behind others gets its whole
 * time), else from the call. Waiting to be drawn is bounded by the same length (`timed_out` with
 * `neverShown`), so the whole wait is at most twice `timeoutMs`. `signal` (the call's) cancels it.
 * The port's signal aborts with an `AskError` saying why ("timed out after 15 min with no answer",
 * "cancelled by the caller", "the run ended") and `data.cause` (`timed_out`, `cancelled`,
 * `run_ended`).
 * A port that fails, or replies with something not on the card, throws `ASK_PORT_FAILED` /
 * `ASK_INVALID_REPLY`.
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
  // "queued" until a port that can tell says the card is drawn; the answer's time starts then.
  let phase: Phase = port.reportsShown === true ? "queued" : "shown";
  // Whether the port said the card is drawn (phase starts "shown" for ports that cannot say).
  let reportedShown = false;
  let expired: Phase | undefined;
  let timer: NodeJS.Timeout | undefined;
  // When the armed timer fires, and, while the card is stopped (off the screen), the time it had left.
  let deadline = 0;
  let left: number | undefined;
  const arm = (ms = card.timeoutMs): void => {
    clearTimeout(timer);
    if (card.timeoutMs === null || ms === null) return;
    const during = phase;
    deadline = performance.now() + ms;
    timer = setTimeout(() => {
      expired = during;
      const after = formatDuration(card.timeoutMs ?? 0);
      controller.abort(
        new AskError({
          code: "ASK_TIMED_OUT",
          message:
            during === "queued"
              ? `never shown: timed out after ${after} behind other cards`
              : `timed out after ${after} with no answer`,
          data: { cause: "timed_out" },
        }),
      );
    }, ms);
  };
  arm();
  const events: CardEvents = {
    shown: () => {
      if (!controller.signal.aborted) reportedShown = true;
      if (phase === "shown" || controller.signal.aborted) return;
      phase = "shown";
      arm();
    },
    // Stopped (Ctrl+Z), the card is not in front of the human: its time waits, and a stop longer than
    // the timeout does not end it the moment the process is continued.
    stopped: () => {
      if (phase !== "shown" || left !== undefined || card.timeoutMs === null || controller.signal.aborted)
        return;
      clearTimeout(timer);
      left = Math.max(0, deadline - performance.now());
    },
    continued: () => {
      if (left === undefined || controller.signal.aborted) return;
      const rest = left;
      left = undefined;
      arm(rest);
    },
  };
  // The port is told why its card goes (a JSON-lines peer reads it): the run ended, or the caller
  // cancelled the call.
  const onAbort = () => {
    const reason: unknown = signal?.reason;
    const runEnded = ToolsError.isInstance(reason) && reason.code === "RUN_DISPOSED";
    controller.abort(
      new AskError({
        code: "ASK_CANCELLED",
        message: runEnded ? "the run ended" : "cancelled by the caller",
        data: { cause: runEnded ? "run_ended" : "cancelled" },
        cause: reason,
      }),
    );
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  // Settles on abort even if a port ignores its signal.
  const aborted = new Promise<"aborted">((resolve) => {
    controller.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  const request = { id: `card_${++cardCounter}`, target, card, text: renderCard(card) };
  const asked = Promise.resolve().then(() => port.ask(request, controller.signal, events));
  try {
    const reply = await Promise.race([asked, aborted]);
    if (reply === "aborted") {
      asked.catch(() => undefined);
      return abortedOutcome(card, expired, signal);
    }
    const checked = checkReply(card, reply);
    if (checked.kind === "decline")
      return checked.reason ? { kind: "declined", reason: checked.reason } : { kind: "declined" };
    return checked.text
      ? { kind: "answered", selected: checked.selected, text: checked.text }
      : { kind: "answered", selected: checked.selected };
  } catch (error) {
    if (controller.signal.aborted) return abortedOutcome(card, expired, signal);
    if (ToolsError.isInstance(error) && error.code === "ASK_NO_HUMAN") {
      // The card was handed to the port: its human's channel closed before an answer.
      const reached = reportedShown ? "shown" : port.reportsShown === true ? undefined : "sent";
      return reached
        ? { kind: "no_human", reached, reason: error.message }
        : { kind: "no_human", reason: error.message };
    }
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

type Phase = "queued" | "shown";

function abortedOutcome(card: Card, expired: Phase | undefined, signal: AbortSignal | undefined): AskOutcome {
  if (expired !== undefined && card.timeoutMs !== null) {
    return expired === "queued"
      ? { kind: "timed_out", timeoutMs: card.timeoutMs, neverShown: true }
      : { kind: "timed_out", timeoutMs: card.timeoutMs };
  }
  return { kind: "cancelled", reason: signal?.aborted ? errorMessage(signal.reason) : "cancelled" };
}
