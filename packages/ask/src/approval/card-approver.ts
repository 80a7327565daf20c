import type { ApprovalDecision, ApprovalRequest, Approver } from "@tools/registry";
import { askCard, type AskOutcome } from "../ask/ask-card.js";
import { errorMessage } from "@tools/registry";
import { buildCard, timeoutOption, type Card } from "../card/card.js";
import { formatDuration } from "../internal/duration.js";
import type { QuestionPort, TargetSpace } from "../port/question-port.js";
import { approvalArguments, fold, shorten, summarizeArguments } from "./summarize-arguments.js";

/** The labels of a permission card, in order (1, 2, 3). */
export const approvalChoices = {
  once: "Allow once",
  run: "Allow this tool for the run",
  deny: "Deny",
} as const;

/** Options of {@link createCardApprover}. */
export interface CardApproverOptions {
  /** Where permission cards render. Default: `{ id: request.conversationId }`. */
  target?: (request: ApprovalRequest) => TargetSpace;
  /**
   * How long a permission card waits, in ms; no answer in time denies. `null` waits until the
   * call is cancelled. Default 15 minutes, shown on the card.
   */
  timeoutMs?: number | null;
}

/** How long a permission card waits by default: 15 minutes, shown on the card. */
export const defaultApprovalTimeoutMs = 15 * 60_000;

/** Longest tool summary and caller shown on a permission card, in characters. */
const summaryLimit = 500;
const callerLimit = 200;

/**
 * Builds the permission card of a request: "Allow ast_edit: stage 12 replacements in 4 files?"
 * with allow once / allow this tool for the run / deny, and the arguments summarised (a long
 * value folded, its start and end kept); `arguments` holds them whole.
 */
export function approvalCard(
  request: ApprovalRequest,
  timeoutMs: number | null = defaultApprovalTimeoutMs,
): Card {
  // A tool's summary can carry its payload (ast_edit's pattern and rewrite): folded, so the
  // card is always drawn (a question over the card's bound would be refused unseen), keeping the
  // end as well as the start (a shell command's tail decides what runs).
  const trimmed = request.summary.trim();
  // A summary of several lines (a worker's brief) ends in its own text: the question comes first,
  // so no "?" is glued to the payload's last line (`rm -rf x` read as `rm -rf x?`).
  const multiline = trimmed.includes("\n");
  const summary = fold(multiline ? trimmed : trimmed.replace(/\?+$/, ""), summaryLimit);
  const who = shorten(request.caller ?? request.surface, callerLimit);
  const caller = request.origin === "model" ? who : `${who} (from a ${request.origin})`;
  return buildCard({
    kind: "permission",
    question: multiline ? `Allow ${request.tool}?\n${summary}` : `Allow ${request.tool}: ${summary}?`,
    context: `${request.tier} tool, called by ${caller}.\nArguments: ${summarizeArguments(request.input)}`,
    options: [
      { label: approvalChoices.once, description: "run this call; ask again next time" },
      {
        label: approvalChoices.run,
        // The registry remembers it for this caller only (a background worker's answer is its own).
        description: `do not ask again for ${request.tool} until the run ends${request.caller ? ` (for ${who} only)` : ""}`,
      },
      { label: approvalChoices.deny, description: "the agent is told you refused" },
    ],
    allowFreeText: false,
    timeoutMs,
    // The text folds long values; the whole arguments travel with the card (a JSON line's field).
    arguments: approvalArguments(request.input),
  });
}

function decide(outcome: AskOutcome): ApprovalDecision {
  switch (outcome.kind) {
    case "answered": {
      const choice = outcome.selected[0];
      if (choice === approvalChoices.once) return { allow: true, remember: "once" };
      if (choice === approvalChoices.run) return { allow: true, remember: "run" };
      return { allow: false, reason: "the operator chose Deny" };
    }
    case "declined":
      // The operator's reason is what the agent needs to do better next (ask_user passes it too).
      return {
        allow: false,
        reason: outcome.reason?.trim()
          ? `the operator declined the permission card, saying: ${JSON.stringify(outcome.reason.trim())}`
          : "the operator declined the permission card",
      };
    case "timed_out":
      return {
        allow: false,
        reason: outcome.neverShown
          ? `the permission card was never shown: other cards were ahead of it for ${formatDuration(outcome.timeoutMs)}`
          : `no answer to the permission card within ${formatDuration(outcome.timeoutMs)}`,
      };
    case "no_human":
      return {
        allow: false,
        reason:
          outcome.reached === undefined
            ? `no human is attached to answer the permission card${outcome.reason ? ` (${outcome.reason})` : ""}`
            : `the permission card was ${outcome.reached === "shown" ? "shown" : "sent"}, but the operator's channel closed before an answer${outcome.reason ? ` (${outcome.reason})` : ""}`,
      };
    case "cancelled":
      return { allow: false, reason: `the permission card was cancelled (${outcome.reason})` };
  }
}

/**
 * The registry's {@link Approver}, drawn as the same card as ask_user through the same port.
 * `attached()` is the port's, so with nobody there the registry fails closed without asking.
 * Every non-answer (decline, timeout, a port failure, cancellation) is a denial.
 */
export function createCardApprover(port: QuestionPort, options: CardApproverOptions = {}): Approver {
  const timeoutMs = timeoutOption(
    options.timeoutMs === undefined ? defaultApprovalTimeoutMs : options.timeoutMs,
    "createCardApprover({ timeoutMs })",
  );
  return {
    attached: () => port.attached(),
    async request(request, signal) {
      const target = options.target?.(request) ?? { id: request.conversationId };
      try {
        return decide(await askCard(port, target, approvalCard(request, timeoutMs), signal));
      } catch (error) {
        return { allow: false, reason: `the permission card failed (${errorMessage(error)})` };
      }
    },
  };
}
