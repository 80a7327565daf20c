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
 * Characters a terminal acts on instead of drawing (ESC starts a sequence that can erase a line or
 * move the cursor, CR returns to the line's start) and the bidirectional overrides and isolates
 * that reorder what follows them ("Trojan Source"): model-chosen text (a question, a shell
 * command in a permission card's question) could use them to show something other than what is
 * asked or what runs. Newline and tab are drawn as they are.
 */
// eslint-disable-next-line no-control-regex -- these are the characters to write out
const actingCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every acting character written out as an escape (`\u001b`, `\r`), so it shows. */
function shownAsWritten(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(actingCharacters, (character) =>
      character === "\r" ? "\\r" : `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}

/**
 * Draws a card as plain text: the one renderer every port uses, so a question reads the same in
 * a terminal, a harness UI and a test. No colour, no cursor control; lines end with "\n". A
 * control character in the card's text (an escape sequence, a carriage return, a bidirectional
 * override) is written out as an escape, never passed to the terminal to act on.
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
  return `${shownAsWritten(lines.join("\n"))}\n`;
}
