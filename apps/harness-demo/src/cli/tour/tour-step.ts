import { countNoun, resultText, type ToolResult } from "@tools/registry";
import type { MemoryQuestionPort } from "@tools/ask";
import type { DemoRun, DemoRunOptions } from "../../create-demo-run.js";

/** What every tour step gets: the tour's run and its workspace. */
export interface TourContext {
  /** The tour's run (approval `auto`). */
  readonly demo: DemoRun;
  /** The temporary copy of the sample workspace (the run's working directory). */
  readonly workspace: string;
  /** The scripted operator: the tour run's question port, answering as each step sets it up. */
  readonly operator: MemoryQuestionPort;
  /** Options to build another run on the same workspace (same interpreter, same backends). */
  readonly runOptions: Omit<DemoRunOptions, "approval" | "questionPort" | "approver">;
}

/** Something shown beside a step's text: a figure, or a card as the human saw it. */
export type Attachment =
  | { readonly kind: "image"; readonly mimeType: string; readonly data: string; readonly caption: string }
  | { readonly kind: "card"; readonly text: string; readonly answer: string; readonly who: string };

/** What a step shows and whether it got what it expected. */
export interface StepOutcome {
  /** The lines to print under the step's title (the call and its real result). */
  readonly shown: string;
  /** `true`, or why the step failed. */
  readonly verdict: true | string;
  /** Figures and cards, drawn as such in transcript.html. */
  readonly attachments?: readonly Attachment[];
}

/** One step of the tour. Later packages add theirs to the list in `tour-steps.ts`. */
export interface TourStep {
  readonly title: string;
  run(context: TourContext): Promise<StepOutcome>;
}

/** A part of the tour: a heading and its steps. */
export interface TourSection {
  readonly title: string;
  /** Said under the heading (what is scripted, what is missing here). */
  readonly note?: string;
  readonly steps: readonly TourStep[];
}

/** The images of a result, as transcript attachments. */
export function imageAttachments(result: ToolResult, caption: string): Attachment[] {
  return result.content.flatMap((part) =>
    part.type === "image"
      ? [
          {
            kind: "image" as const,
            mimeType: part.mimeType,
            data: Buffer.from(part.data).toString("base64"),
            caption,
          },
        ]
      : [],
  );
}

/** A call as a tour step makes it. */
export interface StepCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly surface?: string;
}

/** Most result lines printed per call: the tour is for reading. */
const shownLines = 14;

/** The call and its result as the tour prints them. */
export function showCall(call: StepCall, result: ToolResult): string {
  const surface = call.surface && call.surface !== "main" ? ` (surface ${call.surface})` : "";
  const status = result.isError ? `error ${result.error?.code ?? ""}`.trim() : "ok";
  const lines = resultText(result).split("\n");
  const body = lines.slice(0, shownLines);
  const hidden = lines.length - shownLines;
  if (hidden > 0) body.push(`… ${hidden} ${countNoun(hidden, "more lines")}`);
  const changed = result.changedFiles.length > 0 ? [`changed files: ${result.changedFiles.length}`] : [];
  for (const part of result.content) {
    if (part.type === "image") changed.unshift(`[figure: ${part.mimeType}, ${part.data.length} bytes]`);
  }
  // Multi-line arguments (a patch, a file's content) read better as blocks than as escaped JSON.
  const inline: Record<string, unknown> = {};
  const blocks: string[] = [];
  for (const [name, value] of Object.entries(call.args)) {
    if (typeof value === "string" && value.includes("\n")) {
      inline[name] = "…";
      blocks.push(
        `  ${name}:`,
        ...value
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => `  ┊ ${line}`),
      );
    } else {
      inline[name] = value;
    }
  }
  return [
    `→ ${call.tool} ${JSON.stringify(inline)}${surface}`,
    ...blocks,
    `← ${status}`,
    ...body.map((line) => `│ ${line}`),
    ...changed.map((line) => `│ ${line}`),
  ].join("\n");
}

/**
 * A step that makes one call through the tour's registry and checks the result with `expect`
 * (which returns `true` or why the result is wrong).
 */
export function callStep(
  title: string,
  call: StepCall | ((context: TourContext) => StepCall),
  expect: (result: ToolResult, context: TourContext) => true | string | Promise<true | string>,
): TourStep {
  return {
    title,
    async run(context) {
      const made = typeof call === "function" ? call(context) : call;
      const result = await context.demo.registry.invoke(context.demo.run, {
        tool: made.tool,
        args: made.args,
        surface: made.surface ?? "main",
      });
      return {
        shown: showCall(made, result),
        verdict: await expect(result, context),
        attachments: imageAttachments(result, title),
      };
    },
  };
}

/** `true` when the call failed with `code`, else why not. */
export function refusedWith(code: string): (result: ToolResult) => true | string {
  return (result) =>
    result.isError && result.error?.code === code
      ? true
      : `expected a refusal with code ${code}, got ${result.isError ? (result.error?.code ?? "an error") : "success"}`;
}

/** `true` when the call succeeded and its text contains `needle`, else why not. */
export function succeededWith(needle: string | RegExp): (result: ToolResult) => true | string {
  return (result) => {
    if (result.isError)
      return `expected success, got ${result.error?.code ?? "an error"}: ${result.error?.message ?? ""}`;
    const text = resultText(result);
    const found = typeof needle === "string" ? text.includes(needle) : needle.test(text);
    return found ? true : `expected the result to contain ${String(needle)}`;
  };
}

/** Makes a call through the tour's registry and records it for the step's text. */
export type RecordedCall = (
  tool: string,
  args: Record<string, unknown>,
  surface?: string,
) => Promise<ToolResult>;

/**
 * A step of several calls: `body` makes them through `call` (each is shown) and returns `true`
 * or why the step failed. A thrown error fails the step with the calls made so far shown.
 */
export function sequenceStep(
  title: string,
  body: (call: RecordedCall, context: TourContext) => Promise<true | string>,
): TourStep {
  return {
    title,
    async run(context) {
      const shown: string[] = [];
      const attachments: Attachment[] = [];
      const call: RecordedCall = async (tool, args, surface = "main") => {
        const result = await context.demo.registry.invoke(context.demo.run, { tool, args, surface });
        shown.push(showCall({ tool, args, surface }, result));
        attachments.push(...imageAttachments(result, title));
        return result;
      };
      let verdict: true | string;
      try {
        verdict = await body(call, context);
      } catch (error) {
        verdict = error instanceof Error ? error.message : String(error);
      }
      return { shown: shown.join("\n"), verdict, attachments };
    },
  };
}

/** Throws `why` (failing the step) unless the result succeeded and its text matches `needle`. */
export function expectText(result: ToolResult, needle: string | RegExp, why?: string): string {
  const verdict = succeededWith(needle)(result);
  if (verdict !== true) throw new Error(why ?? verdict);
  return resultText(result);
}
