import { expect, it } from "vitest";
import { debugRun, remaining } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

/** Refusals and ends in the middle of a stop: what they say, and what they leave of the stop. */
describeDebugpy("debug tool on debugpy: refusals within a stop", (project) => {
  it("refuses a step on a thread the program lacks, naming its threads, and the stop's ids stay valid", async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.text).toContain("app.py:6 in compute");
      pids = sessionPids();
      const stack = await call({ op: "stack" });
      const frame = Number(/#0 frame (\d+)/.exec(stack.text)![1]);
      const scopes = await call({ op: "scopes", frame_id: frame });
      const locals = Number(/Locals: reference (\d+)/.exec(scopes.text)![1]);

      const step = await call({ op: "step_over", thread_id: 4242 });
      expect(step.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(step.text).toMatch(
        /^thread 4242 is not a thread of the program, so a step was not sent; its threads: \d+ \(MainThread\)/,
      );

      // The program never resumed: the stop's frame and reference still answer.
      const variables = await call({ op: "variables", reference: locals });
      expect(variables.isError, variables.text).toBe(false);
      expect(variables.text).toMatch(/total \(int\) = 0/);
      const again = await call({ op: "scopes", frame_id: frame });
      expect(again.isError, again.text).toBe(false);
      expect(again.text).toContain(`Locals: reference ${locals}`);
      const stepped = await call({ op: "step_over" });
      expect(stepped.text).toContain("stopped (step)");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("gives a syntax error in an expression without the adapter's own frames", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      await call({ op: "launch", program: "app.py" });
      const evaluated = await call({ op: "evaluate", expression: "def g(:" });
      expect(evaluated.code).toBe("DEBUG_EVALUATE_FAILED");
      expect(evaluated.text).toContain("SyntaxError");
      expect(evaluated.text).not.toMatch(/pydevd|debugpy/);
      expect(evaluated.text.split("\n").length).toBeLessThan(8);
    } finally {
      await run.dispose();
    }
  });

  it("says the pause found the program stopped on a line of its own, after the quoted source line", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      await call({ op: "launch", program: "app.py" });
      const pause = await call({ op: "pause" });
      expect(pause.isError, pause.text).toBe(false);
      const lines = pause.text.split("\n");
      expect(lines[0]).toMatch(/^already stopped \(breakpoint\) in thread \d+ at app\.py:6 in compute/);
      expect(lines[1]).toMatch(/^ {2}6 \| total \+= v$/);
      expect(lines.at(-1)).toBe("nothing to pause: continue or step from here");
    } finally {
      await run.dispose();
    }
  });

  it("says the program exited during an evaluate, and gives no pause advice after", async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      await call({ op: "launch", program: "app.py" });
      pids = sessionPids();
      const evaluated = await call({ op: "evaluate", expression: "__import__('os')._exit(3)" });
      expect(evaluated.code).toBe("DEBUG_SESSION_ENDED");
      expect(evaluated.text).toMatch(/^the program exited with code 3 during evaluate/);
      // At once, while the session may still be ending: no advice to pause a program that is gone.
      const resumed = await call({ op: "continue" });
      expect(resumed.isError).toBe(true);
      expect(resumed.text).toContain("exited with code 3");
      expect(resumed.text).not.toContain("pause");
      const status = await call({ op: "status" });
      expect(status.text).not.toContain("stopped (breakpoint)");
      expect(status.text).toContain("the program exited with code 3");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});
