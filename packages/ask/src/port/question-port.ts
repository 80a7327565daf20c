import { resourceKey } from "@tools/registry";
import type { Card } from "../card/card.js";
import type { CardReply } from "../card/reply.js";

/**
 * Where cards render: a conversation, a chat thread, a terminal. Ports use the id to route a card
 * to the right place; it is not part of the card text.
 */
export interface TargetSpace {
  /** E.g. the conversation id. */
  readonly id: string;
  /** How the space reads to a human ("conversation 42"); optional. */
  readonly label?: string;
}

/**
 * One card to show: where, what, and the rendered text every port shows as is (a terminal folds its
 * lines at spaces to its width).
 */
export interface CardRequest {
  /** Unique per card in this process. */
  readonly id: string;
  readonly target: TargetSpace;
  readonly card: Card;
  /** {@link renderCard}'s text of `card`. */
  readonly text: string;
}

/** What a port tells the asker while a card waits (see {@link QuestionPort.reportsShown}). */
export interface CardEvents {
  /** The card is now in front of the human (drawn, not merely queued). Later calls are ignored. */
  shown(): void;
  /**
   * The card is off the screen for a while, the human unable to answer it (the process stopped by
   * Ctrl+Z, the shell given the terminal): its time to answer stops until {@link continued}.
   */
  stopped?(): void;
  /** The card is in front of the human again after {@link stopped}: its time goes on from where it stopped. */
  continued?(): void;
}

/**
 * Where cards are shown and where answers come from. Implementations: {@link MemoryQuestionPort}
 * (harnesses and tests) and {@link TerminalQuestionPort} (a TTY prompt); a harness UI writes
 * its own.
 */
export interface QuestionPort {
  /** Is a human there to answer right now? False means questions fail at once, never block. */
  attached(): boolean;
  /**
   * True when the port calls `events.shown()` once a card is actually in front of the human. A
   * card's timeout then counts from that moment, so a card queued behind others still gets its
   * whole time (the wait in the queue is bounded separately, by the same length). Absent or false:
   * the timeout counts from the call, as the port cannot say when the card appeared.
   */
  readonly reportsShown?: boolean;
  /**
   * Shows the card and resolves with the human's reply. Must settle (reject) when `signal`
   * aborts — on a timeout or a cancelled call — and take the card down. A port that loses its
   * human while waiting rejects with an `AskError` of code `ASK_NO_HUMAN`. A port that
   * {@link reportsShown} calls `events.shown()` when it draws the card.
   */
  ask(request: CardRequest, signal: AbortSignal, events?: CardEvents): Promise<CardReply>;
}

/** The run resource ask_user needs: "no question port is wired for this run". */
export const questionPortKey = resourceKey<QuestionPort>("question port");

/** The run resource naming where ask_user's cards render: "no question target space is wired". */
export const targetSpaceKey = resourceKey<TargetSpace>("question target space");
