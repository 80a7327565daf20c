import { expect, it } from "vitest";
import { debugRun, remaining } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

const reason = "[stderr] fatal: settings.toml not found";

/** The output part of an exit answer: from its first line that starts it (`starts`) to the end. */
function outputPart(text: string, starts: string): string {
  const at = text.indexOf(starts);
  expect(at, text).toBeGreaterThanOrEqual(0);
  return text.slice(at);
}

// A program that says why it exits on stderr and then writes much stdout (flood_crash.py: 400
// lines of cleanup log after the reason) was reported at its exit with only the last ~1500
// characters of output: all stdout, the reason gone. The exit answer keeps stderr's last lines.
describeDebugpy("the exit answer on debugpy after a flood of stdout", (project) => {
  it("of a launch shows the stderr line that says why, bounded", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "flood_crash.py" });
      pids = sessionPids();
      expect(launch.text).toContain("exited with code 2");
      const recent = outputPart(launch.text, "recent output:\n");
      expect(recent, recent).toContain(reason);
      // The newest stdout is still there, and the whole stays near the bound.
      expect(recent).toContain("cleanup step 399");
      expect(recent.length).toBeLessThan(1800);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("of a continue shows the stderr line that says why, bounded", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "flood_crash.py", lines: [7] });
      const launch = await call({ op: "launch", program: "flood_crash.py" });
      expect(launch.text).toContain("flood_crash.py:7");
      pids = sessionPids();
      const done = await call({ op: "continue" });
      expect(done.text).toContain("exited with code 2");
      const since = outputPart(done.text, "output since the continue");
      expect(since, since).toContain(reason);
      expect(since).toContain("cleanup step 399");
      expect(since.length).toBeLessThan(1800);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});
