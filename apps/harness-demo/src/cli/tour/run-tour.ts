import { errorMessage } from "@tools/registry";
import { createDemoRun } from "../../create-demo-run.js";
import { colourWanted, painter } from "../colour.js";
import { copySampleWorkspace } from "./sample-workspace.js";
import type { StepOutcome } from "./tour-step.js";
import { tourSteps } from "./tour-steps.js";

/**
 * The scripted tour: real calls with their real results on a temporary copy of the sample
 * workspace. Every step prints PASS or FAIL and the tour goes on after a failure. Resolves with
 * the exit code: 0 only when every step passed.
 */
export async function runTour(out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const paint = painter(colourWanted(out));
  const write = (text: string) => out.write(`${text}\n`);
  const workspace = await copySampleWorkspace();
  const demo = createDemoRun({ workingDirectory: workspace.path, approval: "auto" });
  write(paint.bold("harness-demo tour"));
  write(paint.dim(`a temporary copy of the sample workspace: ${demo.run.workingDirectory}`));
  write(paint.dim("approval: auto (every call the surface permits runs without asking)"));
  let failed = 0;
  try {
    for (const [index, step] of tourSteps.entries()) {
      write("");
      write(paint.bold(`${index + 1}. ${step.title}`));
      let outcome: StepOutcome;
      try {
        outcome = await step.run({ demo, workspace: demo.run.workingDirectory });
      } catch (error) {
        outcome = { shown: "", verdict: `the step threw: ${errorMessage(error)}` };
      }
      if (outcome.shown !== "") write(indent(outcome.shown));
      if (outcome.verdict === true) {
        write(`   ${paint.green("PASS")}`);
      } else {
        failed++;
        write(`   ${paint.red(`FAIL: ${outcome.verdict}`)}`);
      }
    }
  } finally {
    await demo.dispose();
    await workspace.remove();
  }
  write("");
  const total = tourSteps.length;
  write(
    failed === 0 ? paint.green(`all ${total} steps passed`) : paint.red(`${failed} of ${total} steps failed`),
  );
  return failed === 0 ? 0 : 1;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `   ${line}`)
    .join("\n");
}
