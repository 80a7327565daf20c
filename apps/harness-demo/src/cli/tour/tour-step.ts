import { resultText, type ToolResult } from "@tools/registry";
import type { DemoRun } from "../../create-demo-run.js";

/** What every tour step gets: the tour's run and its workspace. */
export interface TourContext {
  /** The tour's run (approval `auto`). */
  readonly demo: DemoRun;
  /** The temporary copy of the sample workspace (the run's working directory). */
  readonly workspace: string;
}

/** What a step shows and whether it got what it expected. */
export interface StepOutcome {
  /** The lines to print under the step's title (the call and its real result). */
  readonly shown: string;
  /** `true`, or why the step failed. */
  readonly verdict: true | string;
}

/** One step of the tour. Later packages add theirs to the list in `tour-steps.ts`. */
export interface TourStep {
  readonly title: string;
  run(context: TourContext): Promise<StepOutcome>;
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
  if (lines.length > shownLines) body.push(`… ${lines.length - shownLines} more lines`);
  const changed = result.changedFiles.length > 0 ? [`changed files: ${result.changedFiles.length}`] : [];
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
      return { shown: showCall(made, result), verdict: await expect(result, context) };
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
