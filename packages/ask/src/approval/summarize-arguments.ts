import { characterCount, firstCharacters, lastCharacters } from "../internal/characters.js";

/** Bounds of {@link summarizeArguments}, in characters: the values together, and the whole line. */
const valuesBudget = 3_000;
const lineLimit = 3_500;
/** The least one value gets, however many arguments share the budget. */
const minPerValue = 120;
/**
 * The longest string kept whole in {@link approvalArguments}: shell's longest command (100 000
 * bytes) fits, so a command always reaches the approver whole.
 */
export const wholeStringLimit = 100_000;

/** `text` cut to at most `max` characters (never half of one), ending in "…" when cut. */
export function shorten(text: string, max: number): string {
  return text.length > max && characterCount(text) > max ? `${firstCharacters(text, max - 1)}…` : text;
}

/**
 * `text` folded to at most `max` characters: its head and its tail around a marker saying how
 * much of the middle was left out. Unlike {@link shorten} the end stays visible, which is what a
 * permission needs (`npm test … ; rm -rf ./important`).
 */
export function fold(text: string, max: number): string {
  // No more units than the bound: no more characters either (a file's content is not counted).
  if (text.length <= max) return text;
  const length = characterCount(text);
  if (length <= max) return text;
  const marker = (left: number) => ` …[${left} characters left out]… `;
  const room = max - marker(length).length;
  if (room < 2) return shorten(text, max);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  // Cut between whole characters, and count them as the card's limits do (an emoji is one).
  return `${firstCharacters(text, head)}${marker(length - room)}${lastCharacters(text, tail)}`;
}

function show(value: unknown, max: number): string {
  if (Array.isArray(value)) {
    if (value.length > 3) return `[${value.length} items]`;
  }
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = "(not printable)";
  }
  return fold(text.replace(/\s+/g, " "), max);
}

/**
 * One line of a call's arguments for a permission card: `file="src/a.ts", edits=[12 items]`.
 * The values share 3 000 characters (each at least 120) and the line is at most 3 500; a longer
 * value is folded, keeping its start and its end (a command's tail is never hidden), with the
 * number of characters left out. The whole arguments travel beside it: {@link approvalArguments}.
 */
export function summarizeArguments(input: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(input).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return "(no arguments)";
  const perValue = Math.max(minPerValue, Math.floor(valuesBudget / entries.length));
  return fold(entries.map(([key, value]) => `${key}=${show(value, perValue)}`).join(", "), lineLimit);
}

/**
 * The arguments of a call as a permission card carries them (its `arguments` field): a JSON copy,
 * whole except that a string over 100 000 characters (a huge file's content) is folded as
 * {@link fold} does. Undefined when the arguments are not JSON (nothing a model sends).
 */
export function approvalArguments(
  input: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | undefined {
  try {
    const text = JSON.stringify(input, (_key, value: unknown) =>
      typeof value === "string" ? fold(value, wholeStringLimit) : value,
    );
    const copy = JSON.parse(text) as unknown;
    return typeof copy === "object" && copy !== null && !Array.isArray(copy)
      ? (copy as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
