import { ToolsError } from "@tools/registry";
import { z } from "zod";
import { hasText } from "../internal/has-text.js";
import { labelProblem } from "../internal/plain-label.js";

// What a worker is started or re-briefed with, checked once for both ways in: vibe_spawn's and
// vibe_send's input (the registry's check of their arguments) and the list's own API, which a
// harness may call directly (VibeList.spawn and send), with the same problems and code.

/** A worker's brief: the task itself, never blank. */
export const briefInput = z
  .string()
  .min(1, {
    message: "empty: write the task itself (goal, files, constraints, how to check it)",
    abort: true,
  })
  .refine(
    hasText,
    "blank (only spaces or invisible characters): write the task itself (goal, files, constraints, how to check it)",
  );

/**
 * A worker's label. It may be handed to the worker's command as an argument: never an option, one
 * line; and it is shown to the lead and the operator: never text that displays as another label.
 */
export const labelInput = z
  .string()
  .min(1, { message: 'empty: name the worker in a few words (e.g. "fix login test")', abort: true })
  .max(80, "longer than 80 characters: name the worker in a few words; the task itself goes in the brief")
  .superRefine((label, ctx) => {
    const problem = labelProblem(label);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });

/** A worker's id as vibe_spawn answered it (`w1`): never empty. */
export const workerIdInput = z
  .string()
  .min(1, "empty: give the id vibe_spawn answered (e.g. w1; vibe_list shows every worker's id)");

/** A worker's tier. */
export const tierInput = z.enum(["fast", "good"]);

/** What vibe_send adds to a brief: never blank. */
export const messageInput = z
  .string()
  .min(1, {
    message: 'empty: say what to add to the brief (to rerun it as it is: "Try again.")',
    abort: true,
  })
  .refine(
    hasText,
    'blank (only spaces or invisible characters): say what to add to the brief (to rerun it as it is: "Try again.")',
  );

const spawnInput = z.object({ brief: briefInput, label: labelInput, tier: tierInput.optional() });
const sendInput = z.object({ message: messageInput });

/**
 * Throws `INVALID_ARGUMENTS` (what vibe_spawn answers) when the brief, label or tier of a spawn
 * request is one the tool refuses: each problem on a line of its own, as the tool says it.
 */
export function checkSpawnInput(request: { brief: unknown; label: unknown; tier?: unknown }): void {
  refuse(
    spawnInput.safeParse({ brief: request.brief, label: request.label, tier: request.tier }),
    "no worker was started",
  );
}

/** Throws `INVALID_ARGUMENTS` (what vibe_send answers) when `message` is one the tool refuses. */
export function checkSendInput(id: string, message: unknown): void {
  refuse(sendInput.safeParse({ message }), `${id} was not re-briefed`);
}

function refuse(parsed: z.ZodSafeParseResult<unknown>, what: string): void {
  if (parsed.success) return;
  const problems = parsed.error.issues.map(
    (issue) => `- ${issue.path.join(".")}: ${issue.message.replace(/^Invalid input: /, "")}`,
  );
  throw new ToolsError({
    code: "INVALID_ARGUMENTS",
    message: `${what}:\n${problems.join("\n")}`,
    data: { problems },
  });
}
