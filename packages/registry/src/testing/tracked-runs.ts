// Runs made by a test file, each disposed after its test (vitest's afterEach).
import { afterEach } from "vitest";
import { createRun, type Run } from "../run/run.js";
import { tempDir } from "./fixture-tools.js";

/** Registers the disposal and returns a maker of runs in a fresh temporary working directory. */
export function trackedRuns(): () => Run {
  const runs: Run[] = [];
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((run) => run.dispose()));
  });
  return () => {
    const run = createRun({ workingDirectory: tempDir() });
    runs.push(run);
    return run;
  };
}
