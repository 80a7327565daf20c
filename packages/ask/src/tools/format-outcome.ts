import { textResult, type ToolResult } from "@tools/registry";
import type { AskOutcome } from "../ask/ask-card.js";
import { AskError } from "../errors/ask-error.js";
import { formatDuration } from "../internal/duration.js";

const carryOn =
  'Carry on under an assumption you state in your reply ("Assuming …, because …"), and do not ask this question again.';

function quote(text: string): string {
  return JSON.stringify(text);
}

/**
 * Turns an outcome into what the model reads. An answer is the only result that says "answered";
 * a decline is a success telling the agent to carry on under a stated assumption; a timeout and
 * a missing human are errors with the same instruction; a cancelled call is an error. A secret
 * answer (`secret: true`) is never shown: the result says only that the operator answered.
 */
export function outcomeResult(outcome: AskOutcome): ToolResult {
  switch (outcome.kind) {
    case "answered": {
      if (outcome.secret) {
        return textResult(
          "The operator answered. Their answer is a secret: it went to the caller and is not shown here.",
        );
      }
      const lines = ["The operator answered."];
      if (outcome.selected.length === 1) lines.push(`Chosen option: ${quote(outcome.selected[0] ?? "")}`);
      if (outcome.selected.length > 1)
        lines.push(`Chosen options: ${outcome.selected.map(quote).join(", ")}`);
      if (outcome.text)
        lines.push(`${outcome.selected.length > 0 ? "Their note" : "Their answer"}: ${quote(outcome.text)}`);
      return textResult(lines.join("\n"));
    }
    case "declined":
      return textResult(
        `The operator declined to answer${outcome.reason ? ` (${quote(outcome.reason)})` : ""}. This is not an answer. ${carryOn}`,
      );
    case "timed_out":
      throw new AskError({
        code: "ASK_TIMED_OUT",
        message: outcome.neverShown
          ? `The question was never shown: for ${formatDuration(outcome.timeoutMs)} other questions to the operator were still open ahead of it (they are shown one at a time), so the operator did not see it. This is not an answer. ${carryOn}`
          : `No answer within ${formatDuration(outcome.timeoutMs)}: the operator may be away. This is not an answer. ${carryOn}`,
        data: { timeoutMs: outcome.timeoutMs, shown: outcome.neverShown !== true },
      });
    case "no_human": {
      const why = outcome.reason ? ` (${outcome.reason})` : "";
      throw new AskError({
        code: "ASK_NO_HUMAN",
        message:
          outcome.reached === "shown"
            ? `The question was shown, but the operator's channel closed before an answer${why}. This is not an answer. ${carryOn}`
            : outcome.reached === "sent"
              ? `The question was sent to the operator, but their channel closed before an answer${why}; they may have seen it. This is not an answer. ${carryOn}`
              : `No human is attached to answer${why}, so the question was not asked. ${carryOn}`,
        data: { shown: outcome.reached ?? "never" },
      });
    }
    case "cancelled":
      throw new AskError({
        code: "ASK_CANCELLED",
        message: `The question was cancelled before anyone answered (${outcome.reason}). This is not an answer.`,
      });
  }
}

/**
 * `ASK_DECLINED_BEFORE`: the question was asked again after the operator declined it in this run,
 * and was not shown again.
 */
export function askedAgain(reason: string | undefined): AskError {
  return new AskError({
    code: "ASK_DECLINED_BEFORE",
    message: `The operator already declined this question in this run${reason ? ` (${quote(reason)})` : ""}, so it was not shown again. This is not an answer. ${carryOn}`,
  });
}
