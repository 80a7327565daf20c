// Runs made by a test file, each disposed after its test (vitest's afterEach).
import { afterEach } from "vitest";
import { createRun, type Run, type RunOptions } from "../run/run.js";
import { tempDir } from "./fixture-tools.js";

/**
 * Registers the disposal and returns a maker of runs: in a fresh temporary working directory
 * unless the options name one.
 */
export function trackedRuns(): (options?: Partial<RunOptions>) => Run {
  const runs: Run[] = [];
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((run) => run.dispose()));
  });
  return (options = {}) => {
    const run = createRun({ ...options, workingDirectory: options.workingDirectory ?? tempDir() });
    runs.push(run);
    return run;
  };
}
