import { AskError } from "../errors/ask-error.js";
import { characterCount, firstCharacters } from "../internal/characters.js";
import { numberedListLines } from "./numbered-lines.js";

/** One choice on a card. */
export interface CardOption {
  /** What the human picks, and what the answer reports: unique on its card. */
  readonly label: string;
  /** One line under the label: what choosing it means. */
  readonly description?: string;
}

/**
 * A numbered card: the one thing a human sees, for ask_user questions and for permission
 * prompts alike. Build one with {@link buildCard}, which validates it.
 */
export interface Card {
  /** "Question" or "Permission": the card's first word. */
  readonly kind: "question" | "permission";
  readonly question: string;
  /** Why it is asked, and what depends on the answer. */
  readonly context?: string;
  /**
   * Who asks, when the harness named the caller (a background worker: `worker w2 "writer"`); at
   * most {@link cardLimits}.caller characters (a longer one is shortened, never refused). Absent:
   * the agent the human is talking to.
   */
  readonly caller?: string;
  /** Numbered from 1 in this order. */
  readonly options: readonly CardOption[];
  /** Whether a typed answer is accepted. */
  readonly allowFreeText: boolean;
  /** Whether several options may be chosen ("1,3"). */
  readonly multiSelect: boolean;
  /** After this long with no answer the question times out; `null` waits until cancelled. */
  readonly timeoutMs: number | null;
  /**
   * A permission card's call arguments, whole (what the text may fold): a harness UI shows them
   * so the human approves exactly what runs. Absent on question cards.
   */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /**
   * The answer is a secret (a password a cell's `getpass()` asks for): a port hides it as it is
   * typed (the terminal shows nothing, as a password prompt does; a harness UI masks its field),
   * and nothing shows it back — not the port's "answered" line, not ask_user's result, which hands
   * it to the caller out of band. A secret card takes typed text only: no options. Absent: an
   * ordinary card.
   */
  readonly secret?: true;
}

/**
 * Size bounds of a card, in characters (options: a count). `answer` bounds what the human types
 * back — an answer, a note after a number, a decline's reason: a longer reply is refused with the
 * limit and the card stays open, so the human can shorten it (nothing is cut silently).
 */
export const cardLimits = {
  question: 2_000,
  context: 4_000,
  options: 12,
  label: 200,
  description: 1_000,
  answer: 10_000,
  caller: 200,
} as const;

/** The longest wait a Node timer keeps (2³¹ − 1 ms, about 24.8 days); a longer one fires at once. */
export const longestTimeoutMs = 2_147_483_647;

/**
 * What is wrong with a card's timeout, or undefined when it is fine: null (no timeout) or a
 * positive number of milliseconds a timer can wait.
 */
export function checkTimeout(timeoutMs: number | null): string | undefined {
  if (timeoutMs === null) return undefined;
  // From JavaScript or a config file: "60000" or "15m" would read as "60000 ms is not a positive number".
  if (typeof timeoutMs !== "number") {
    return `timeout ${shownValue(timeoutMs)} is a ${typeof timeoutMs}, not a number of milliseconds: give one (60000 for a minute), or null for no timeout`;
  }
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    return `timeout ${String(timeoutMs)} ms is not a positive number: use null for no timeout`;
  }
  if (timeoutMs > longestTimeoutMs) {
    return `timeout ${timeoutMs} ms is longer than a timer can wait (${longestTimeoutMs} ms, about 24.8 days): use null for no timeout`;
  }
  return undefined;
}

/** A value as written in JavaScript, never throwing (JSON.stringify throws on a BigInt, 10n). */
function shownValue(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `timeoutMs` as given to a factory's options; throws `ASK_INVALID_OPTION` when no card could use it. */
export function timeoutOption(timeoutMs: number | null, where: string): number | null {
  const problem = checkTimeout(timeoutMs);
  if (problem) throw new AskError({ code: "ASK_INVALID_OPTION", message: `${where}: ${problem}` });
  return timeoutMs;
}

/** What {@link buildCard} takes: loose strings, as a model or a harness sends them. */
export interface CardInput {
  kind?: "question" | "permission";
  question: string;
  context?: string | undefined;
  /** Who asks (see {@link Card.caller}); shortened to fit, never refused. */
  caller?: string | undefined;
  options?: readonly { label: string; description?: string | undefined }[] | undefined;
  /** Default: true when there are no options, false otherwise. */
  allowFreeText?: boolean | undefined;
  multiSelect?: boolean | undefined;
  timeoutMs?: number | null | undefined;
  /** A permission card's call arguments, kept as given (see {@link Card.arguments}). */
  arguments?: Readonly<Record<string, unknown>> | undefined;
  /** The answer is a secret (see {@link Card.secret}): a question card with no options only. */
  secret?: boolean | undefined;
}

/** Collapses runs of whitespace (newlines included) in a one-line field. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Validates and normalises a card. Strict where the human could not answer (no option and no
 * free text, duplicate labels, oversized fields, a label that is a number typing would read as
 * another option's or as a decline); lenient where only the display is concerned
 * (whitespace is trimmed, newlines in labels collapse, blank descriptions are dropped,
 * multi-select with fewer than two options is simply single choice). A question card with options
 * whose question or context holds a numbered list (two lines or more such as "1. yes") is refused:
 * the card numbers the options itself, and the two numberings would disagree. Throws
 * `ASK_INVALID_QUESTION` listing every problem and what to do instead.
 */
export function buildCard(input: CardInput): Card {
  const problems: string[] = [];
  const question = input.question.trim();
  if (question === "") problems.push("question is empty: write the question you want answered");
  if (characterCount(question) > cardLimits.question) {
    problems.push(
      `question is ${characterCount(question)} characters, at most ${cardLimits.question}: ask it in a sentence or two and move background into context (at most ${cardLimits.context} characters; put longer material in a file and give its path)`,
    );
  }
  const context = input.context?.trim() || undefined;
  if (context && characterCount(context) > cardLimits.context) {
    problems.push(
      `context is ${characterCount(context)} characters, at most ${cardLimits.context}: keep what the answer changes (put longer material in a file and give its path)`,
    );
  }
  const wholeCaller = input.caller ? oneLine(input.caller) : "";
  const caller =
    characterCount(wholeCaller) > cardLimits.caller
      ? `${firstCharacters(wholeCaller, cardLimits.caller - 1)}…`
      : wholeCaller;
  const rawOptions = input.options ?? [];
  if (rawOptions.length > cardLimits.options) {
    problems.push(
      `${rawOptions.length} options, at most ${cardLimits.options}: offer the likeliest ones and allow free text`,
    );
  }
  const options: CardOption[] = [];
  const seen = new Map<string, number>();
  rawOptions.forEach((raw, index) => {
    const label = oneLine(raw.label);
    const description = raw.description ? oneLine(raw.description) || undefined : undefined;
    const where = `options[${index}]`;
    if (label === "") problems.push(`${where}.label is empty: give every option a label`);
    if (characterCount(label) > cardLimits.label) {
      problems.push(
        `${where}.label is ${characterCount(label)} characters, at most ${cardLimits.label}: move detail into description`,
      );
    }
    if (description && characterCount(description) > cardLimits.description) {
      problems.push(
        `${where}.description is ${characterCount(description)} characters, at most ${cardLimits.description}`,
      );
    }
    const key = label.toLowerCase();
    const first = seen.get(key);
    if (label !== "" && first !== undefined) {
      problems.push(`${where}.label '${label}' repeats options[${first}]: every option needs its own label`);
    } else seen.set(key, index);
    options.push(description ? { label, description } : { label });
  });
  // A label that is a number the card reads otherwise: typed, it would pick by position ("3" on
  // a card offering 3, 5, 10 picks "10") or decline ("0"). Said before the human meets it.
  options.forEach(({ label }, index) => {
    if (!/^\d+$/.test(label)) return;
    const value = Number(label);
    const where = `options[${index}].label '${label}'`;
    if (value === 0) {
      problems.push(
        `${where} is what the human types to decline, so typing it could not choose it: write it with a word ('0 retries')`,
      );
    } else if (value <= options.length && value !== index + 1) {
      problems.push(
        `${where} is also the number of option ${value} ('${options[value - 1]?.label ?? ""}'): typing ${value} picks by number, so it would choose that one, not this; write the label with a word ('${label} replicas'), or order the options so each number is its own`,
      );
    }
  });
  // The card numbers the options itself: a list numbered in the text would show a second, different
  // "1." and "2.", and typing 1 would pick the first option, not the text's first line.
  if ((input.kind ?? "question") === "question" && rawOptions.length > 0) {
    for (const [field, text] of [
      ["question", question],
      ["context", context ?? ""],
    ] as const) {
      const listed = numberedListLines(text);
      if (listed.length > 0) {
        problems.push(
          `${field} has a numbered list (${listed
            .slice(0, 3)
            .map((line) => `'${characterCount(line) > 40 ? `${firstCharacters(line, 39)}…` : line}'`)
            .join(
              ", ",
            )}${listed.length > 3 ? ", …" : ""}) while options are given: the card numbers the options itself, so a number typed picks an option, not that line. Put the choices only in options (a label each, detail in description) and take the list out of ${field}, or write it with "-" bullets`,
        );
      }
    }
  }
  const allowFreeText = input.allowFreeText ?? options.length === 0;
  const secret = input.secret === true;
  if (secret && (input.kind ?? "question") !== "question") {
    problems.push("a permission card cannot be secret: only a question's typed answer can be");
  }
  if (secret && rawOptions.length > 0) {
    problems.push("a secret card has options: a secret is typed, never picked, so give it no options");
  }
  if (secret && !allowFreeText) {
    problems.push("a secret card must allow free text: the secret is the typed answer");
  }
  if (rawOptions.length === 0 && !allowFreeText && !secret) {
    problems.push(
      "no options and allow_free_text is false: offer at least one option or allow a typed answer",
    );
  }
  const timeoutMs = input.timeoutMs ?? null;
  const timeoutProblem = checkTimeout(timeoutMs);
  if (timeoutProblem) problems.push(timeoutProblem);
  if (problems.length > 0) {
    throw new AskError({
      code: "ASK_INVALID_QUESTION",
      message: `The question was not shown:\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
      data: { problems },
    });
  }
  return {
    kind: input.kind ?? "question",
    question,
    ...(context ? { context } : {}),
    ...(caller ? { caller } : {}),
    options,
    allowFreeText,
    multiSelect: (input.multiSelect ?? false) && options.length > 1,
    timeoutMs,
    ...(input.arguments === undefined ? {} : { arguments: input.arguments }),
    ...(secret ? { secret: true as const } : {}),
  };
}
