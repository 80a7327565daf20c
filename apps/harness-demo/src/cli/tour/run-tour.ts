import { mkdir } from "node:fs/promises";
import { MemoryQuestionPort } from "@tools/ask";
import { errorMessage } from "@tools/registry";
import { createOpenAiBackend } from "@tools/vibe";
import { createDemoRun, type DemoRunOptions } from "../../create-demo-run.js";
import { colourWanted, painter } from "../colour.js";
import { copySampleWorkspace } from "./sample-workspace.js";
import { startScriptedModelServer } from "./scripted-model-server.js";
import type { StepOutcome, TourContext } from "./tour-step.js";
import { tourSections } from "./tour-steps.js";
import { writeTranscripts, type SectionRecord, type TourRecord } from "./transcript.js";

/** Options of {@link runTour}. */
export interface TourOptions {
  /** Where transcript.md and transcript.html go; default the current directory. */
  readonly out?: string;
  readonly output?: NodeJS.WriteStream;
}

/**
 * The scripted tour: real calls with their real results on a temporary copy of the sample
 * workspace. Every step prints PASS or FAIL and the tour goes on after a failure. It ends by
 * writing transcript.md and transcript.html. Resolves with the exit code: 0 only when every step
 * passed.
 */
export async function runTour(options: TourOptions = {}): Promise<number> {
  const out = options.output ?? process.stdout;
  const paint = painter(colourWanted(out));
  const write = (text: string) => out.write(`${text}\n`);
  const started = Date.now();
  write(paint.bold("harness-demo tour"));
  write(paint.dim("… copying the sample workspace and making python/.venv"));
  const workspace = await copySampleWorkspace();
  if (workspace.venvError) write(paint.red(workspace.venvError));
  write(paint.dim("… starting the local scripted model server (SCRIPTED answers, not a real model)"));
  const model = await startScriptedModelServer();
  const operator = new MemoryQuestionPort();
  const runOptions: TourContext["runOptions"] = {
    workingDirectory: workspace.path,
    ...(workspace.python === undefined ? {} : { pythonPath: workspace.python }),
  };
  const demoOptions: DemoRunOptions = {
    ...runOptions,
    approval: "auto",
    questionPort: operator,
    vibeBackend: createOpenAiBackend({
      baseURL: model.baseUrl,
      apiKey: "scripted-no-key",
      models: { fast: "scripted-fast", good: "scripted-good" },
      maxRetries: 0,
      maxTurns: 4,
    }),
  };
  const demo = createDemoRun(demoOptions);
  const stopProgress = demo.registry.on((event) => {
    // Cells stream their output as progress too; the tour shows only what is starting.
    if (event.type === "call-progress" && (event.tool !== "eval" || /(…|\.\.\.)$/.test(event.message)))
      write(paint.dim(`   … ${event.tool}: ${event.message}`));
  });
  write(paint.dim(`a temporary copy of the sample workspace: ${demo.run.workingDirectory}`));
  write(paint.dim("approval: auto (every call the surface permits runs without asking)"));
  const sections: SectionRecord[] = [];
  let failed = 0;
  let stepNumber = 0;
  const context: TourContext = { demo, workspace: demo.run.workingDirectory, operator, runOptions };
  try {
    for (const [index, section] of tourSections.entries()) {
      const record: SectionRecord = {
        number: index + 1,
        title: section.title,
        ...(section.note === undefined ? {} : { note: section.note }),
        steps: [],
      };
      sections.push(record);
      write("");
      write(paint.bold(`── ${record.number}. ${section.title}`));
      if (section.note) write(paint.dim(`   ${section.note}`));
      for (const step of section.steps) {
        stepNumber++;
        const number = `${record.number}.${record.steps.length + 1}`;
        write("");
        write(paint.bold(`${number} ${step.title}`));
        let outcome: StepOutcome;
        try {
          outcome = await step.run(context);
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
        record.steps.push({
          number,
          title: step.title,
          shown: outcome.shown,
          verdict: outcome.verdict,
          attachments: outcome.attachments ?? [],
        });
      }
    }
  } finally {
    stopProgress();
    write("");
    write(paint.dim("… ending the run: kernels, debug adapters and workers stop with it"));
    const report = await demo.dispose();
    for (const failure of report.failed) write(paint.red(`cleanup failed: ${failure}`));
    await model.close();
    await workspace.remove();
  }
  const record: TourRecord = {
    workspace: demo.run.workingDirectory,
    startedAt: new Date(started),
    seconds: (Date.now() - started) / 1000,
    sections,
  };
  const directory = options.out ?? process.cwd();
  await mkdir(directory, { recursive: true });
  const written = await writeTranscripts(record, directory);
  write("");
  write(`transcript: ${written.markdown}`);
  write(`            ${written.html}`);
  write(
    failed === 0
      ? paint.green(`all ${stepNumber} steps passed`)
      : paint.red(`${failed} of ${stepNumber} steps failed`),
  );
  return failed === 0 ? 0 : 1;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `   ${line}`)
    .join("\n");
}
