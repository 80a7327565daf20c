import { closestName, defineTool, type Tool } from "@tools/registry";
import { z } from "zod";
import { askCard } from "../ask/ask-card.js";
import { buildCard, cardLimits, timeoutOption } from "../card/card.js";
import { questionPortKey, targetSpaceKey } from "../port/question-port.js";
import { earlierDecline, rememberDecline } from "./declined-questions.js";
import { askedAgain, outcomeResult } from "./format-outcome.js";

/** ask_user's default wait: 15 minutes. Shown on every card; configure it with {@link createAskUserTool}. */
export const defaultAskTimeoutMs = 15 * 60_000;

/** Options of {@link createAskUserTool}. */
export interface AskUserToolOptions {
  /**
   * How long a question waits for an answer, in ms; `null` waits until the call is cancelled or
   * the run ends. Default {@link defaultAskTimeoutMs}. The card always says which.
   */
  timeoutMs?: number | null;
}

/** The keys an option takes. */
const optionKeys = ["label", "description"] as const;

/** "unknown key 'desc' (did you mean 'description'?); an option takes only label, description". */
function unknownOptionKeys(keys: readonly string[]): string {
  const named = keys.map((key) => {
    const guess = closestName(key, optionKeys);
    return `'${key}'${guess ? ` (did you mean '${guess}'?)` : ""}`;
  });
  return `unknown key${keys.length === 1 ? "" : "s"} ${named.join(", ")}; an option takes only ${optionKeys.join(", ")}`;
}

const askUserInput = z.object({
  question: z
    .string()
    .describe(`What to ask, as one clear question; at most ${cardLimits.question} characters.`),
  context: z
    .string()
    .optional()
    .describe(`Why you ask, and what depends on the answer; at most ${cardLimits.context} characters.`),
  options: z
    .array(
      // Strict: a misspelt key (`desc`) is refused, not dropped with what it carried.
      z.strictObject(
        {
          label: z.string().describe("The choice, short."),
          description: z.string().optional().describe("What choosing it means."),
        },
        {
          error: (issue) => (issue.code === "unrecognized_keys" ? unknownOptionKeys(issue.keys) : undefined),
        },
      ),
    )
    .optional()
    .describe(`Choices, numbered on the card; unique labels; at most ${cardLimits.options}.`),
  allow_free_text: z
    .boolean()
    .optional()
    .describe("Whether a typed answer is accepted. Default: true when there are no options, else false."),
  multi_select: z.boolean().optional().describe("Whether several options may be chosen. Default false."),
});

const description = `Ask the human operator a question and wait for the reply. Shows a numbered card in the conversation; blocks until they answer, decline, or the question times out. Use it when a decision is theirs to make (a trade-off, a missing requirement), never to write the question as a chat message, which ends your turn. One question per call; offer likely choices as options.
Outcomes: an answer (chosen option labels and/or their text); declined (carry on under a stated assumption, do not ask again: the same question asked again in this run is not shown and fails); an error when it times out or nobody is attached (the same: carry on, do not ask again).
Example: {"question": "Which database should the new service use?", "context": "The migration scripts depend on it.", "options": [{"label": "Postgres", "description": "what production runs"}, {"label": "SQLite"}], "allow_free_text": true}`;

/**
 * Creates the ask_user tool (read tier). Registered in a run only when both a
 * {@link questionPortKey} and a {@link targetSpaceKey} are wired. A nested call that passes
 * `receiveSecret` (eval's `getpass()`) gets a secret card (`Card.secret`): the answer goes to
 * that function, and the result only says that it was answered.
 */
export function createAskUserTool(options: AskUserToolOptions = {}): Tool<typeof askUserInput> {
  const timeoutMs = timeoutOption(
    options.timeoutMs === undefined ? defaultAskTimeoutMs : options.timeoutMs,
    "createAskUserTool({ timeoutMs })",
  );
  return defineTool({
    name: "ask_user",
    tier: "read",
    parallelSafe: true,
    description,
    input: askUserInput,
    requires: [questionPortKey, targetSpaceKey],
    summarize: (input) => input.question,
    async execute(input, context) {
      const card = buildCard({
        question: input.question,
        context: input.context,
        // A background worker's question says whose it is, as its permission cards do.
        caller: context.caller,
        options: input.options,
        allowFreeText: input.allow_free_text,
        multiSelect: input.multi_select,
        timeoutMs,
        // A caller taking a secret out of band (eval's getpass()) gets a secret card; a model
        // cannot ask for one, having no argument for it.
        secret: context.receiveSecret !== undefined,
      });
      // Asked again after the operator declined it: they are not asked twice. A cell's question is
      // a program's prompt (input()'s "Name: ", getpass()'s "Password: "), which a rerun of the
      // cell or the next program asks in the same words: the operator is asked each time.
      const fromProgram = context.origin === "cell";
      const declined = fromProgram ? undefined : earlierDecline(context.run, card);
      if (declined) throw askedAgain(declined.reason);
      const port = context.run.require(questionPortKey);
      const target = context.run.require(targetSpaceKey);
      const outcome = await askCard(port, target, card, context.signal);
      if (card.secret && outcome.kind === "answered") {
        context.receiveSecret?.(outcome.text ?? "");
        return outcomeResult({ kind: "answered", selected: [], secret: true });
      }
      if (outcome.kind === "declined" && !fromProgram) {
        rememberDecline(context.run, card, { reason: outcome.reason });
      }
      return outcomeResult(outcome);
    },
  });
}

/** ask_user with the default timeout ({@link defaultAskTimeoutMs}). */
export const askUserTool: Tool<typeof askUserInput> = createAskUserTool();
