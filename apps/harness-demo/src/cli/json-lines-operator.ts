import {
  AskError,
  checkReply,
  parseReply,
  type Card,
  type CardEvents,
  type CardReply,
  type CardRequest,
  type QuestionPort,
} from "@tools/ask";
import { errorMessage } from "@tools/registry";

/**
 * A card event line of `serve --operator jsonl`. A secret card (`card.secret`, a cell's
 * `getpass()`) is sent with `"secret": true`, so the peer's UI masks its field; its answer goes to
 * the cell only, never into a line serve writes.
 */
export type CardEvent =
  | { readonly event: "card"; readonly card_id: string; readonly card: Card & { readonly text: string } }
  | {
      readonly event: "card_closed";
      readonly card_id: string;
      /** In words: "taken down: timed out after 15 min with no answer". */
      readonly reason: string;
      /**
       * Why, for a program: the card's timeout, the call cancelled, the run ended, input ended, or
       * serve shut down (SIGTERM, SIGINT, its output closed).
       */
      readonly cause: CardClosedCause;
    }
  | { readonly event: "card_error"; readonly card_id: string | null; readonly error: string };

/** Why a card was taken down (`card_closed.cause`). */
export type CardClosedCause = "timed_out" | "cancelled" | "run_ended" | "input_ended" | "shutdown";

/**
 * Why serve lets go of its operator: its input ended, a signal, its output was closed, or (after
 * its input ended) the process that started it is gone.
 */
export type DetachReason = "end of input" | "SIGTERM" | "SIGINT" | "output closed" | "parent gone";

/** Why the card's signal aborted, from the reason askCard gives it ("cancelled" when it gave none). */
function closedCause(reason: unknown): CardClosedCause {
  const cause: unknown = AskError.isInstance(reason) ? reason.data?.["cause"] : undefined;
  return cause === "timed_out" || cause === "run_ended" || cause === "input_ended" ? cause : "cancelled";
}

interface Waiting {
  readonly request: CardRequest;
  readonly settle: (reply: CardReply) => void;
  readonly fail: (error: AskError, cause: CardClosedCause) => void;
}

/**
 * The question port of `serve --operator jsonl`: the peer on the other end of the JSON lines is
 * the human. A card goes out as one line `{"event": "card", "card_id", "card"}`; the answer comes
 * back as a line `{"card_id", "answer"}` (a typed reply such as "2", "1,3", "2: note" or free
 * text, or `{"selected": [labels], "text"}`) or `{"card_id", "decline": true}`. A reply that does
 * not fit the card gets a `card_error` line and the card stays open; a card taken down (timeout,
 * cancelled call, end of input) gets a `card_closed` line.
 */
export class JsonLinesOperatorPort implements QuestionPort {
  /**
   * The card line goes out as the card is asked, and the port says so: a card that was shown and
   * then lost its operator (end of input) is told apart from one never asked.
   */
  readonly reportsShown = true;
  private readonly waiting = new Map<string, Waiting>();
  private present = true;
  private gone = "the operator's input has ended";

  constructor(private readonly emit: (event: CardEvent) => void) {}

  attached(): boolean {
    return this.present;
  }

  /**
   * The peer is gone: open cards fail with `ASK_NO_HUMAN`, new ones at once. `reason` is why serve
   * let go: end of input (`card_closed.cause` "input_ended"), or a signal or closed output
   * ("shutdown").
   */
  detach(reason: DetachReason = "end of input"): void {
    this.present = false;
    const ended = reason === "end of input";
    this.gone = ended ? "the operator's input has ended" : `serve is shutting down (${reason})`;
    const message = ended
      ? "the operator's input ended before an answer"
      : `serve is shutting down (${reason}) before an answer`;
    for (const entry of this.waiting.values()) {
      entry.fail(new AskError({ code: "ASK_NO_HUMAN", message }), ended ? "input_ended" : "shutdown");
    }
  }

  ask(request: CardRequest, signal: AbortSignal, events?: CardEvents): Promise<CardReply> {
    if (!this.present) {
      return Promise.reject(new AskError({ code: "ASK_NO_HUMAN", message: this.gone }));
    }
    return new Promise<CardReply>((resolve, reject) => {
      const close = (reason: string, cause: CardClosedCause) => {
        this.waiting.delete(request.id);
        signal.removeEventListener("abort", onAbort);
        this.emit({ event: "card_closed", card_id: request.id, reason, cause });
      };
      const onAbort = () => {
        close(`taken down: ${errorMessage(signal.reason)}`, closedCause(signal.reason));
        reject(new AskError({ code: "ASK_CANCELLED", message: "the card was taken down" }));
      };
      if (signal.aborted) {
        reject(new AskError({ code: "ASK_CANCELLED", message: "the card was taken down" }));
        return;
      }
      this.waiting.set(request.id, {
        request,
        settle: (reply) => {
          this.waiting.delete(request.id);
          signal.removeEventListener("abort", onAbort);
          resolve(reply);
        },
        fail: (error, cause) => {
          close(error.message, cause);
          reject(error);
        },
      });
      signal.addEventListener("abort", onAbort, { once: true });
      this.emit({ event: "card", card_id: request.id, card: { ...request.card, text: request.text } });
      events?.shown();
    });
  }

  /**
   * Takes an input line's object if it is a card reply (it has `card_id` and no `tool`): answers
   * the card, or emits a `card_error`. Returns false for anything else (a tool request).
   */
  handleLine(record: Record<string, unknown>): boolean {
    if (!("card_id" in record) || "tool" in record) return false;
    const id = record["card_id"];
    if (typeof id !== "string") {
      this.emit({ event: "card_error", card_id: null, error: '"card_id" must be the string of a card line' });
      return true;
    }
    const entry = this.waiting.get(id);
    if (!entry) {
      this.emit({
        event: "card_error",
        card_id: id,
        error: `no open card '${id}' (answered, closed, or never shown)`,
      });
      return true;
    }
    try {
      entry.settle(readReply(entry.request.card, record));
    } catch (error) {
      this.emit({ event: "card_error", card_id: id, error: errorMessage(error) });
    }
    return true;
  }
}

/** The fields a card reply line takes (an `id` a peer numbers its lines with is let be, as before). */
const replyFields: ReadonlySet<string> = new Set(["card_id", "answer", "decline", "reason", "id"]);

/** The reply a card-answer line carries, checked against the card; throws with a message for the peer. */
function readReply(card: Card, record: Record<string, unknown>): CardReply {
  const answer = record["answer"];
  const decline = record["decline"];
  // A field the reply does not take would be dropped unseen (a "note" meant for the agent, a
  // misspelt "reasn"): refused, naming it, and the card stays open, as request lines are.
  const unknown = Object.keys(record).filter((field) => !replyFields.has(field));
  if (unknown.length > 0) {
    throw new Error(
      `a card reply has no field ${unknown.map((field) => JSON.stringify(field)).join(", ")}: it takes "card_id" with "answer", or with "decline": true and an optional "reason" (a note on an answer goes in it as typed: "2: a note")`,
    );
  }
  if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) {
    const extra = Object.keys(answer).filter((field) => field !== "selected" && field !== "text");
    if (extra.length > 0) {
      throw new Error(
        `"answer" has no field ${extra.map((field) => JSON.stringify(field)).join(", ")}: it takes "selected" (option labels) and "text"`,
      );
    }
  }
  if (decline !== undefined && typeof decline !== "boolean") {
    throw new Error('"decline" must be true (to decline) or left out');
  }
  if (decline === true && answer !== undefined) {
    throw new Error(
      'the reply has both "answer" and "decline": true; send one: the answer, or the decline (with an optional "reason")',
    );
  }
  if (decline !== true && record["reason"] !== undefined) {
    throw new Error(
      '"reason" goes with "decline": true; a note on an answer goes in it as typed ("2: a note")',
    );
  }
  if (decline === true) {
    const reason = record["reason"];
    if (reason !== undefined && typeof reason !== "string") throw new Error('"reason" must be a string');
    return checkReply(card, typeof reason === "string" ? { kind: "decline", reason } : { kind: "decline" });
  }
  if (typeof answer === "string") return parseReply(card, answer);
  if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) {
    const { selected = [], text } = answer as { selected?: unknown; text?: unknown };
    if (!Array.isArray(selected) || !selected.every((label) => typeof label === "string")) {
      throw new Error('"answer.selected" must be a list of option labels');
    }
    if (text !== undefined && typeof text !== "string") throw new Error('"answer.text" must be a string');
    return checkReply(
      card,
      text === undefined ? { kind: "answer", selected } : { kind: "answer", selected, text },
    );
  }
  throw new Error(
    'a card reply is {"card_id": …, "answer": "2"} (as typed in the terminal), {"card_id": …, "answer": {"selected": ["label"], "text": "…"}} or {"card_id": …, "decline": true}',
  );
}
