import { formatDuration } from "../internal/duration.js";
import type { Card } from "./card.js";

/** What the human types to decline; shown and accepted on every card ("0: reason" says why). */
export const declineToken = "0";

/** The line that tells the human how to reply. */
function replyHint(card: Card): string {
  if (card.secret) {
    return `Type the secret and press Enter: it is not shown as you type, and not shown back.`;
  }
  const parts: string[] = [];
  if (card.options.length > 0) {
    parts.push(
      card.multiSelect
        ? `Reply with a number, or several separated by commas ("1,3")`
        : card.options.length === 1
          ? "Reply with 1"
          : `Reply with one number (1-${card.options.length})`,
    );
    if (card.allowFreeText) parts.push(`or type your own answer (a note after a number: "1: …")`);
  } else {
    parts.push("Type your answer");
  }
  const hint = `${parts.join(", ")}.`;
  if (card.options.length === 0) return hint;
  // How a line is read, in the order parseReply reads it.
  const range = card.options.length === 1 ? "1" : `A number from 1 to ${card.options.length}`;
  return card.allowFreeText
    ? `${hint}\n${range} or an option's exact label picks that option; anything else is your own answer.`
    : `${hint}\nAn option's exact label, typed out, picks it too.`;
}

/**
 * Draws a card as plain text: the one renderer every port uses, so a question reads the same in
 * a terminal, a harness UI and a test. No colour, no cursor control; lines end with "\n".
 */
export function renderCard(card: Card): string {
  const lines: string[] = [];
  const title = card.kind === "permission" ? "Permission" : "Question";
  lines.push(`-- ${title} ${"-".repeat(Math.max(4, 56 - title.length))}`);
  if (card.caller) lines.push(`Asked by ${card.caller}:`);
  if (card.secret) lines.push("(secret: what you type is hidden and never shown back)");
  lines.push(card.question);
  if (card.context) lines.push(...card.context.split("\n").map((line) => `  ${line}`));
  lines.push("");
  card.options.forEach((option, index) => {
    lines.push(`  ${index + 1}. ${option.label}`);
    if (option.description) lines.push(`     ${option.description}`);
  });
  if (card.options.length > 0) lines.push("");
  lines.push(
    card.kind === "permission"
      ? `  ${declineToken}. Decline (the call is denied); "${declineToken}: reason" says why`
      : card.secret
        ? // What is typed on a secret card is the secret: a reason after "0:" would be read as a
          // secret too (a password may start so), so only a lone 0 declines.
          `  ${declineToken}. Decline to answer (a lone ${declineToken}; Ctrl+C in a terminal declines too)`
        : `  ${declineToken}. Decline to answer (the agent carries on with a stated assumption); "${declineToken}: reason" says why`,
  );
  lines.push("");
  lines.push(replyHint(card));
  lines.push(
    card.timeoutMs === null
      ? "No time limit: the question waits until you answer."
      : `Waiting up to ${formatDuration(card.timeoutMs)}; after that it counts as no answer.`,
  );
  return `${lines.join("\n")}\n`;
}
