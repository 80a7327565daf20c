import { checkReply, parseReply, type CardReply } from "../card/reply.js";
import { AskError } from "../errors/ask-error.js";
import type { CardEvents, CardRequest, QuestionPort } from "../port/question-port.js";

/** A card shown on a {@link MemoryQuestionPort}, with the means to answer it. */
export interface ShownCard extends CardRequest {
  /** `pending` until answered, declined, or taken down (timeout, cancel, detach). */
  readonly state: "pending" | "replied" | "taken down";
  /**
   * Replies as a human would type it in the terminal: "2", "1,3", "2: note", text, "0", "0: reason".
   * Like {@link answer} and {@link decline}, throws `ASK_INVALID_REPLY` (the card stays pending)
   * when the reply does not fit the card, and when the card is no longer pending.
   */
  reply(line: string): void;
  /** Replies with chosen labels and/or text; checked against the card. */
  answer(answer: { selected?: readonly string[]; text?: string }): void;
  /** Declines to answer. */
  decline(reason?: string): void;
}

/** Answers cards as they are shown (a harness's scripted human). */
export type MemoryResponder = (card: ShownCard) => void;

/** Options of {@link MemoryQuestionPort}. */
export interface MemoryQuestionPortOptions {
  /** Whether a human is there at the start; default true. */
  attached?: boolean;
  /** Called with each card as it is shown; may answer it at once or later. */
  respond?: MemoryResponder;
}

interface Entry {
  card: ShownCard;
  settle: (reply: CardReply) => void;
  fail: (error: AskError) => void;
}

/**
 * A question port in memory, for harnesses and tests: cards are recorded with the same text the
 * terminal shows, and answered programmatically (`nextCard()` then `reply("1,3")`, or a
 * `respond` callback). `detach()` makes it report no human, failing waiting cards.
 */
export class MemoryQuestionPort implements QuestionPort {
  /** Every card is shown as it is asked (no queue), and the port says so. */
  readonly reportsShown = true;
  private present: boolean;
  private readonly respond: MemoryResponder | undefined;
  private readonly entries: Entry[] = [];
  private handedOut = 0;
  private readonly waiters = new Set<() => boolean>();

  constructor(options: MemoryQuestionPortOptions = {}) {
    this.present = options.attached ?? true;
    this.respond = options.respond;
  }

  attached(): boolean {
    return this.present;
  }

  /** A human is there again. */
  attach(): void {
    this.present = true;
  }

  /** Nobody is there: waiting cards fail with `ASK_NO_HUMAN`, new ones fail at once. */
  detach(): void {
    this.present = false;
    for (const entry of this.entries) {
      if (entry.card.state === "pending") {
        entry.fail(new AskError({ code: "ASK_NO_HUMAN", message: "the human left before answering" }));
      }
    }
  }

  /** Every card shown so far, oldest first. */
  get shown(): readonly ShownCard[] {
    return this.entries.map((entry) => entry.card);
  }

  /** Cards still waiting for a reply. */
  pending(): ShownCard[] {
    return this.shown.filter((card) => card.state === "pending");
  }

  /**
   * The next card not yet returned by `nextCard`, waiting for it to be shown if need be.
   * Rejects after `timeoutMs` (default 5 s) so a test never hangs.
   */
  nextCard(timeoutMs = 5_000): Promise<ShownCard> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const entry = this.entries[this.handedOut];
        if (!entry) return false;
        this.handedOut++;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(entry.card);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no card was shown within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  ask(request: CardRequest, signal: AbortSignal, events?: CardEvents): Promise<CardReply> {
    if (!this.present) {
      return Promise.reject(new AskError({ code: "ASK_NO_HUMAN", message: "no human is attached" }));
    }
    return new Promise<CardReply>((resolve, reject) => {
      let state: ShownCard["state"] = "pending";
      const finish = (next: ShownCard["state"]) => {
        state = next;
        signal.removeEventListener("abort", onAbort);
      };
      const settle = (reply: CardReply) => {
        if (state !== "pending") {
          // A scripted human replying late (after a timeout, a cancel, a detach) or twice.
          throw new AskError({
            code: "ASK_INVALID_REPLY",
            message:
              state === "replied"
                ? `card ${request.id} was already replied to: a card takes one reply`
                : `card ${request.id} was taken down (timed out, cancelled, or the human detached) before this reply: nobody waits for it`,
          });
        }
        const checked = checkReply(request.card, reply);
        finish("replied");
        resolve(checked);
      };
      const fail = (error: AskError) => {
        finish("taken down");
        reject(error);
      };
      const onAbort = () => fail(new AskError({ code: "ASK_CANCELLED", message: "the card was taken down" }));
      const card: ShownCard = {
        ...request,
        get state() {
          return state;
        },
        reply: (line) => settle(parseReply(request.card, line)),
        answer: ({ selected = [], text }) =>
          settle(text === undefined ? { kind: "answer", selected } : { kind: "answer", selected, text }),
        decline: (reason) => settle(reason === undefined ? { kind: "decline" } : { kind: "decline", reason }),
      };
      this.entries.push({ card, settle, fail });
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      events?.shown();
      for (const waiter of this.waiters) if (waiter()) break;
      this.respond?.(card);
    });
  }
}
