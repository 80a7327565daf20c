import { AskError } from "../errors/ask-error.js";
import { characterCount, firstCharacters, lastCharacters } from "../internal/characters.js";
import { cardLimits, type Card } from "./card.js";
import { declineToken } from "./render-card.js";

/**
 * A human's reply to a card, as a port reports it. An answer names the chosen options by label
 * and/or carries typed text; it is never empty (see {@link checkReply}).
 */
export type CardReply =
  | { readonly kind: "answer"; readonly selected: readonly string[]; readonly text?: string }
  | { readonly kind: "decline"; readonly reason?: string };

function invalid(message: string): AskError {
  return new AskError({ code: "ASK_INVALID_REPLY", message });
}

/** Refuses typed text over {@link cardLimits}.answer, so the human can shorten it and reply again. */
function bounded(text: string, what: "answer" | "note" | "reason"): string {
  const length = characterCount(text);
  if (length > cardLimits.answer) {
    throw invalid(
      `The ${what} is ${length} characters, at most ${cardLimits.answer}: shorten it (put long material in a file and give its path), then reply again.`,
    );
  }
  return text;
}

/** Most characters of a reply quoted back in a refusal; a longer one keeps its start and end. */
const quotedChars = 80;

/** `text` in quotes for a refusal, folded to {@link quotedChars} (a pasted megabyte is not echoed back). */
function quoted(text: string): string {
  const length = characterCount(text);
  if (length <= quotedChars) return `'${text}'`;
  const half = Math.floor((quotedChars - 1) / 2);
  return `'${firstCharacters(text, half)}…${lastCharacters(text, half)}' (${length.toLocaleString("en-US")} characters)`;
}

function choose(card: Card): string {
  // A card with no options takes only typed text (buildCard refuses one that takes neither).
  if (card.options.length === 0) return `type your answer, or ${declineToken} to decline`;
  const range = card.options.length === 1 ? "1" : `a number from 1 to ${card.options.length}`;
  const several = card.multiSelect ? ` (several separated by commas: "1,3")` : "";
  return `type ${range}${several}${card.allowFreeText ? " or your own answer" : ""}, or ${declineToken} to decline`;
}

/**
 * Reads a typed line as a reply to `card`: "2", "1,3" (or "1 3" on a multi-select card), "2: keep
 * the old API", free text, "0" to decline, or "0: reason" to decline and say why (on every card,
 * as the note after a number). Throws `ASK_INVALID_REPLY` with a message for the human (the port
 * shows it and asks again); an empty line is never taken as an answer. A number that is no option on the card
 * ("2024" with three options) is typed text when the card allows free text, and refused otherwise.
 * On a secret card ({@link Card.secret}) the line is the secret as typed, or a lone "0" to decline.
 */
export function parseReply(card: Card, line: string): CardReply {
  if (card.secret) return parseSecret(card, line);
  const text = line.trim();
  if (text === "") throw invalid(`Nothing was typed: ${choose(card)}.`);
  if (text === declineToken) return { kind: "decline" };
  // "0: reason" declines and says why, as "2: a note" picks and adds a note; "0:30" (a time, no
  // reason) is not a decline.
  const declined = new RegExp(`^${declineToken}\\s*:(?!\\d)\\s*([\\s\\S]*)$`).exec(text);
  if (declined) {
    const reason = declined[1]?.trim();
    return reason ? { kind: "decline", reason: bounded(reason, "reason") } : { kind: "decline" };
  }
  // An option's label typed out picks it (labels are unique regardless of case), before numbers:
  // on a multi-select card an option labelled "1 3" is picked by typing "1 3".
  const typed = text.replace(/\s+/g, " ").toLowerCase();
  const byLabel = card.options.find((option) => option.label.toLowerCase() === typed);
  if (byLabel) return { kind: "answer", selected: [byLabel.label] };
  // Several numbers are separated by commas; on a multi-select card by spaces too ("1 3"). A colon
  // followed at once by a digit is a time or a ratio ("2:30", "2:1"), not a note after a number, as
  // "0:30" is no decline.
  const numbered = (
    card.multiSelect
      ? /^(\d+(?:\s*,\s*\d+|\s+\d+)*)\s*(?::(?!\d)\s*([\s\S]*))?$/
      : /^(\d+(?:\s*,\s*\d+)*)\s*(?::(?!\d)\s*([\s\S]*))?$/
  ).exec(text);
  const parts = numbered ? (numbered[1] ?? "").split(/\s*,\s*|\s+/) : [];
  const picks = parts.map(Number);
  // Named as typed: "99999999999999999999" is not shown back as 100000000000000000000.
  const outside = parts.filter((_part, index) => {
    const pick = picks[index] ?? 0;
    return pick < 1 || pick > card.options.length;
  });
  if (numbered && card.options.length > 0 && outside.length === 0) {
    const unique = [...new Set(picks)];
    if (unique.length > 1 && !card.multiSelect) {
      throw invalid(`This question takes one choice, not ${unique.length}: ${choose(card)}.`);
    }
    const note = numbered[2]?.trim() || undefined;
    if (note && !card.allowFreeText) {
      // The reason the human meant to give has a place: "0: reason" declines and says why.
      throw invalid(
        `This question takes no typed note: ${choose(card)} ("${declineToken}: reason" declines and says why).`,
      );
    }
    if (note) bounded(note, "note");
    const selected = unique.map((pick) => card.options[pick - 1]?.label ?? "");
    return note ? { kind: "answer", selected, text: note } : { kind: "answer", selected };
  }
  // Not a choice on this card, so the human meant the number itself (a year, a count).
  if (card.allowFreeText) return { kind: "answer", selected: [], text: bounded(text, "answer") };
  if (numbered && card.options.length > 0) {
    throw invalid(`There is no option ${outside.join(", ")}: ${choose(card)}.`);
  }
  throw invalid(`${quoted(text)} is not an option: ${choose(card)}.`);
}

/**
 * A secret card's line: the secret as typed (a password keeps its spaces; only the line end goes),
 * or a lone "0" to decline. "0: reason" is not a decline here: what is typed on a secret card may
 * be the secret, and a decline's reason is passed on to the agent. No message quotes the line.
 */
function parseSecret(card: Card, line: string): CardReply {
  const text = line.replace(/\r?\n$/, "");
  if (text.trim() === "") throw invalid(`Nothing was typed: ${choose(card)}.`);
  if (text.trim() === declineToken) return { kind: "decline" };
  return { kind: "answer", selected: [], text: bounded(text, "answer") };
}

/**
 * Checks a port's structured reply against its card: known labels, one unless multi-select,
 * text only when allowed and at most {@link cardLimits}.answer characters (a decline's reason too),
 * and never empty. Returns the reply with labels in card order and
 * duplicates dropped; throws `ASK_INVALID_REPLY` otherwise, and for what is no reply at all (a
 * port resolving with the typed line: {@link parseReply} reads one).
 */
export function checkReply(card: Card, reply: CardReply): CardReply {
  checkShape(reply);
  if (reply.kind === "decline") {
    const reason = reply.reason?.trim();
    return reason ? { kind: "decline", reason: bounded(reason, "reason") } : { kind: "decline" };
  }
  if (card.secret) return checkSecret(card, reply);
  const labels = card.options.map((option) => option.label);
  const unknown = reply.selected.filter((label) => !labels.includes(label));
  if (unknown.length > 0) {
    throw invalid(
      `the reply chose ${unknown.map(quoted).join(", ")}, not on the card (${labels.join(", ")})`,
    );
  }
  const selected = labels.filter((label) => reply.selected.includes(label));
  if (selected.length > 1 && !card.multiSelect) {
    throw invalid(`the reply chose ${selected.length} options on a single-choice card`);
  }
  const text = reply.text?.trim() || undefined;
  if (text && !card.allowFreeText)
    throw invalid("the reply carries text, but the card takes no typed answer");
  if (selected.length === 0 && !text) throw invalid("the reply is empty: no option chosen and no text");
  if (text) bounded(text, selected.length > 0 ? "note" : "answer");
  return text ? { kind: "answer", selected, text } : { kind: "answer", selected };
}

/**
 * Refuses what is not a {@link CardReply} at all (a port written in JavaScript resolving with the
 * typed line, or `selected` as one string), naming the shape a port resolves with.
 */
function checkShape(reply: unknown): asserts reply is CardReply {
  const fields = typeof reply === "object" && reply !== null ? (reply as Record<string, unknown>) : {};
  const text = fields.kind === "decline" ? fields.reason : fields.text;
  const fits =
    (fields.kind === "decline" ||
      (fields.kind === "answer" &&
        Array.isArray(fields.selected) &&
        fields.selected.every((label) => typeof label === "string"))) &&
    // A reply that went through JSON carries null for an absent text or reason.
    (text === undefined || text === null || typeof text === "string");
  if (fits) return;
  let shown: string;
  try {
    shown = JSON.stringify(reply) ?? String(reply);
  } catch {
    shown = String(reply);
  }
  throw invalid(
    `the reply ${quoted(shown)} is not a card reply: a port resolves with { kind: "answer", selected: [labels], text? } or { kind: "decline", reason? } (parseReply(card, line) reads a typed line into one)`,
  );
}

/** A secret card's structured reply: text only, kept as typed (never trimmed), never empty. */
function checkSecret(card: Card, reply: Extract<CardReply, { kind: "answer" }>): CardReply {
  if (reply.selected.length > 0) throw invalid("the reply chose options, but a secret card has none");
  const text = reply.text ?? "";
  if (text.trim() === "") throw invalid(`the reply is empty: ${choose(card)}`);
  return { kind: "answer", selected: [], text: bounded(text, "answer") };
}
