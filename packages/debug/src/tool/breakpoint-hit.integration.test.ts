import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../adapters/find-binary.js";
import {
  ci,
  debugRun,
  goModule,
  makeVenv,
  remaining,
  removeWorkspace,
  workspace,
} from "../__fixtures__/harness.js";

const python = existsSync("/usr/bin/python3");
const searchPath = process.env.PATH ?? "";
const dlv = Boolean(findOnPath("dlv", searchPath) && findOnPath("go", searchPath));

// A breakpoint set while the program runs, on a line it runs all the time, was answered
// "line 5: verified" only: the stop that came a moment later was said by nobody (a `continue`
// next would run past it). The answer waits a moment for a stop and reports it. The wait here
// is long (20 s): it ends at the stop, which comes at once.
describe.skipIf(!python && !ci)("breakpoints set while the program runs, on debugpy", () => {
  let dir: string;
  beforeAll(() => {
    expect(python, "python3-debugpy must be installed").toBe(true);
    dir = workspace("python");
    makeVenv(dir);
  });
  afterAll(() => removeWorkspace(dir));

  it("report the stop at one the program reaches at once", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 500, breakpointHitMs: 20_000 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "loop.py" });
      expect(launch.text).toContain("still running");
      pids = sessionPids();
      const set = await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      const lines = set.text.split("\n");
      expect(lines.slice(0, 2)).toEqual(["loop.py", "  line 5: verified  | n += 1"]);
      expect(lines[2]).toMatch(
        /^the program has stopped \(breakpoint\) in thread \d+ at loop\.py:5 in <module> \(frame \d+\)$/,
      );
      expect(lines[3]).toBe("  5 | n += 1");
      // It is the session's stop: inspection answers at once.
      expect((await call({ op: "evaluate", expression: "n > 0" })).text).toBe("True (bool)");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("say the program runs on when it reaches none within the wait", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 500, breakpointHitMs: 300 });
    let pids: number[] = [];
    try {
      await call({ op: "launch", program: "loop.py" });
      pids = sessionPids();
      // Line 3 ran once, before the loop: never again.
      const set = await call({ op: "breakpoints", file: "loop.py", lines: [3] });
      expect(set.text.split("\n").slice(1)).toEqual([
        "  line 3: verified  | n = 0",
        "the program is running and did not stop within 300 ms: it stops when it reaches one; op 'status' shows the stop then, or 'pause' stops it now",
      ]);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});

describe.skipIf(!dlv && !ci)("breakpoints set while the program runs, on delve", () => {
  it("report the stop at one the program reaches at once", { timeout: 180_000 }, async () => {
    const dir = goModule("spin", [
      "package main",
      "",
      'import "time"',
      "",
      "func main() {",
      "\tn := 0",
      "\tfor {",
      "\t\tn++",
      "\t\ttime.Sleep(10 * time.Millisecond)",
      "\t}",
      "}",
    ]);
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 500, breakpointHitMs: 20_000 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "." });
      expect(launch.text, launch.text).toContain("still running");
      pids = sessionPids();
      const set = await call({ op: "breakpoints", file: "main.go", lines: [8] });
      expect(set.text).toContain("line 8: verified");
      expect(set.text).toMatch(
        /\nthe program has stopped \(breakpoint\) in thread \d+ at main\.go:8 in main\.main \(frame \d+\)\n {2}8 \| n\+\+/,
      );
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    expect(remaining(pids)).toEqual([]);
  });
});
