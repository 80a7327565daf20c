import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { execFileSync } from "node:child_process";
import {
  alive,
  ci,
  debugRun,
  goModule,
  remaining,
  removeWorkspace,
  until,
  workspace,
} from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";
import { DapConnection } from "../dap/dap-connection.js";
import { sentCommands } from "../__fixtures__/sent-commands.js";
import { dlv, lldb } from "../__fixtures__/backends.js";

afterEach(() => {
  vi.restoreAllMocks();
});

// A breakpoint set while the program runs, on a line it runs all the time, was answered
// "line 5: verified" only: the stop that came a moment later was said by nobody (a `continue`
// next would run past it). The answer waits a moment for a stop and reports it. The wait here
// is long (20 s): it ends at the stop, which comes at once.
describeDebugpy("breakpoints set while the program runs, on debugpy", (project) => {
  it("report the stop at one the program reaches at once", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 500, breakpointHitMs: 20_000 });
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

  it("say why the program exited when it ends during the wait", { timeout: 120_000 }, async () => {
    // It exits failing, the reason on stderr: the answer said only the exit code, where every
    // other answer that reports an exit shows what the program wrote. It exits once the test
    // opens the gate, right after the breakpoints request went to the adapter: inside the wait
    // (10 s from the answer) however slowly the launch went (a program exiting 0.6 s after its
    // start ended before the call on a loaded machine).
    const gate = join(project.dir, "quick-gate");
    rmSync(gate, { force: true });
    const quick = [
      "import os, sys, time",
      `while not os.path.exists(${JSON.stringify(gate)}):`,
      "    time.sleep(0.02)",
      "sys.stderr.write('fatal: gone\\n')",
      "os._exit(3)",
      "x = 1",
      "",
    ];
    writeFileSync(join(project.dir, "quick.py"), quick.join("\n"));
    const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 200, breakpointHitMs: 10_000 });
    let pids: number[] = [];
    try {
      expect((await call({ op: "launch", program: "quick.py" })).text).toContain("still running");
      pids = sessionPids();
      const sent = sentCommands();
      const setting = call({ op: "breakpoints", file: "quick.py", lines: [6] });
      expect(await until(() => sent().includes("setBreakpoints"), 10_000)).toBe(true);
      writeFileSync(gate, "");
      const set = await setting;
      // The adapter answers before the exit, or (a loaded machine) the exit comes first: the
      // end is said either way (see the next test).
      expect(set.text.split("\n").slice(-3), set.text).toEqual([
        "the program exited with code 3; the session has ended",
        "recent output:",
        "[stderr] fatal: gone",
      ]);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  // An exit after the request went out but before the adapter answered (inside the wait, which
  // starts with the request) was answered as an error that said the exit code only:
  // "... during setBreakpoints, so setBreakpoints has no answer", without what the program wrote.
  it("say why the program exited when it ends before the adapter answers", { timeout: 120_000 }, async () => {
    const gate = join(project.dir, "early-gate");
    rmSync(gate, { force: true });
    const early = [
      "import os, sys, time",
      `while not os.path.exists(${JSON.stringify(gate)}):`,
      "    time.sleep(0.02)",
      "sys.stderr.write('fatal: gone early\\n')",
      "os._exit(3)",
      "x = 1",
      "",
    ];
    writeFileSync(join(project.dir, "early.py"), early.join("\n"));
    const { run, call, sessionPids, supervisor } = debugRun(project.dir, {
      firstStopMs: 200,
      breakpointHitMs: 10_000,
    });
    let pids: number[] = [];
    try {
      expect((await call({ op: "launch", program: "early.py" })).text).toContain("still running");
      pids = sessionPids();
      const debuggee = [...supervisor.conversation("conv-1").session!.debuggeePids];
      expect(debuggee.length).toBeGreaterThan(0);
      // Staged: the program is gone by the time setBreakpoints reaches debugpy.
      const request = Reflect.get(DapConnection.prototype, "request") as (
        ...all: unknown[]
      ) => Promise<unknown>;
      vi.spyOn(DapConnection.prototype, "request").mockImplementation(async function (
        this: DapConnection,
        ...all: unknown[]
      ) {
        if (all[0] === "setBreakpoints") {
          writeFileSync(gate, "");
          await until(() => alive(debuggee).length === 0, 10_000);
        }
        return Reflect.apply(request, this, all);
      } as DapConnection["request"]);
      const set = await call({ op: "breakpoints", file: "early.py", lines: [6] });
      expect({ isError: set.isError, lines: set.text.split("\n") }).toEqual({
        isError: false,
        lines: [
          "early.py: lines 6 pending: the program ended before the adapter answered; they are sent when the program is launched or attached",
          "the program exited with code 3; the session has ended",
          "recent output:",
          "[stderr] fatal: gone early",
        ],
      });
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("say the program runs on when it reaches none within the wait", { timeout: 120_000 }, async () => {
    const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 500, breakpointHitMs: 300 });
    let pids: number[] = [];
    try {
      await call({ op: "launch", program: "loop.py" });
      pids = sessionPids();
      // Line 3 ran once, before the loop: never again.
      const set = await call({ op: "breakpoints", file: "loop.py", lines: [3] });
      expect(set.text.split("\n").slice(1)).toEqual([
        "  line 3: verified  | n = 0",
        "the program is running and did not stop within 300 ms of the adapter's answer: it stops when it reaches one; " +
          "op 'status', or the next 'breakpoints', 'continue' or step, reports that stop; 'pause' stops it now",
      ]);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  // The bound counts from the adapter's answer (the breakpoint is set then), not from the
  // request: a slow adapter (lldb-dap interrupts the program first) does not eat the wait.
  it(
    "count the wait's bound from the adapter's answer, however late it comes",
    { timeout: 120_000 },
    async () => {
      const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 500, breakpointHitMs: 300 });
      let pids: number[] = [];
      try {
        await call({ op: "launch", program: "loop.py" });
        pids = sessionPids();
        // setBreakpoints reaches debugpy 1 s late: the breakpoint is set, and the program stops
        // at it, well after 300 ms from the request, a moment after the answer.
        const request = Reflect.get(DapConnection.prototype, "request") as (
          ...all: unknown[]
        ) => Promise<unknown>;
        vi.spyOn(DapConnection.prototype, "request").mockImplementation(function (
          this: DapConnection,
          ...all: unknown[]
        ) {
          if (all[0] !== "setBreakpoints") return Reflect.apply(request, this, all);
          return new Promise((resolve) => setTimeout(resolve, 1000)).then(() =>
            Reflect.apply(request, this, all),
          );
        } as DapConnection["request"]);
        const set = await call({ op: "breakpoints", file: "loop.py", lines: [5] });
        expect(set.text.split("\n")[2], set.text).toMatch(
          /^the program has stopped \(breakpoint\) in thread \d+ at loop\.py:5 in <module> \(frame \d+\)$/,
        );
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    },
  );
});

// A stop that came after every answer (after the breakpoints' wait, or a "still running") was
// said by nobody, and the next continue resumed past it: the program ran on from a breakpoint
// the user never learnt it reached. A continue or step now reports such a stop, as status shows
// it, and resumes nothing; once an answer said it (that one, or status), they resume.
describeDebugpy(
  "a stop no answer reported, on debugpy",
  (project) => {
    async function stoppedUnseen(options: { resumeWaitMs: number }) {
      const harness = debugRun(project.dir, { firstStopMs: 300, breakpointHitMs: 300, ...options });
      const launch = await harness.call({ op: "launch", program: "late.py" });
      expect(launch.text).toContain("still running");
      const set = await harness.call({ op: "breakpoints", file: "late.py", lines: [3] });
      expect(set.text).toContain("did not stop within 300 ms of the adapter's answer");
      const session = harness.supervisor.conversation("conv-1").session!;
      expect(await until(() => session.state === "stopped", 10_000)).toBe(true);
      return harness;
    }

    it("a continue reports it and resumes nothing; the next one runs on", { timeout: 120_000 }, async () => {
      const { run, call, sessionPids } = await stoppedUnseen({ resumeWaitMs: 10_000 });
      const pids = sessionPids();
      try {
        const first = await call({ op: "continue" });
        const lines = first.text.split("\n");
        expect(lines[0]).toMatch(
          /^the program had stopped before this continue, and no answer had said so: stopped \(breakpoint\) in thread \d+ at late\.py:3 in <module> \(frame \d+\)$/,
        );
        expect(lines[1]).toBe("  3 | x = 1");
        expect(lines.at(-1)).toBe("nothing was resumed: inspect it here, or continue again to run on");
        // It is still there, with its ids valid.
        expect((await call({ op: "evaluate", expression: "'x' in dir()" })).text).toBe("False (bool)");
        const second = await call({ op: "continue" });
        expect(second.text).toMatch(/^the program exited with code 0/);
        expect(second.text).toContain("after");
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    });

    it(
      "a continue cancelled before its stop came leaves that stop unreported",
      { timeout: 120_000 },
      async () => {
        // The stop (line 4) comes only once the test opens the gate, after the cancel: the race
        // is staged however late a starved machine runs the test's timers (a stop 1.5 s after a
        // cancel timed at 100 ms was not, and came first on a loaded machine).
        const gate = join(project.dir, "gate");
        rmSync(gate, { force: true });
        const gated = [
          "import os, time",
          `while not os.path.exists(${JSON.stringify(gate)}):`,
          "    time.sleep(0.02)",
          "x = 1",
          "print('after', flush=True)",
          "",
        ];
        writeFileSync(join(project.dir, "gated.py"), gated.join("\n"));
        const { run, call, sessionPids, supervisor } = debugRun(project.dir, {
          firstStopMs: 10_000,
          resumeWaitMs: 10_000,
        });
        let pids: number[] = [];
        try {
          await call({ op: "breakpoints", file: "gated.py", lines: [1, 4] });
          expect((await call({ op: "launch", program: "gated.py" })).text).toContain(
            "gated.py:1 in <module>",
          );
          pids = sessionPids();
          // Cancelled once the continue went to the adapter (the program runs, waiting at the gate).
          const sent = sentCommands();
          const cancel = new AbortController();
          const continued = call({ op: "continue" }, cancel.signal);
          expect(await until(() => sent().includes("continue"), 10_000)).toBe(true);
          cancel.abort(new Error("the user cancelled it"));
          expect((await continued).isError).toBe(true);
          const session = supervisor.conversation("conv-1").session!;
          expect(session.state).toBe("running");
          writeFileSync(gate, "");
          expect(await until(() => session.state === "stopped", 10_000)).toBe(true);
          // The cancelled call's own wait ends at the stop meanwhile; what it made of it went nowhere.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const next = await call({ op: "continue" });
          expect(next.text).toMatch(
            /^the program had stopped before this continue, and no answer had said so: stopped \(breakpoint\) in thread \d+ at gated\.py:4 /,
          );
        } finally {
          await run.dispose();
        }
        expect(remaining(pids)).toEqual([]);
      },
    );

    it("a breakpoints call reports it; a continue after that runs on", { timeout: 120_000 }, async () => {
      // The breakpoints' wait is short: a stop after it must be said by whatever call comes next.
      const { run, call, sessionPids } = await stoppedUnseen({ resumeWaitMs: 10_000 });
      const pids = sessionPids();
      try {
        const set = await call({ op: "breakpoints", file: "late.py", lines: [3, 4] });
        const lines = set.text.split("\n");
        expect(lines.slice(0, 3)).toEqual([
          "late.py",
          "  line 3: verified  | x = 1",
          "  line 4: verified  | y = 2",
        ]);
        expect(lines[3]).toMatch(
          /^the program had stopped before this call, and no answer had said so: stopped \(breakpoint\) in thread \d+ at late\.py:3 in <module> \(frame \d+\)$/,
        );
        expect(lines[4]).toBe("  3 | x = 1");
        const next = await call({ op: "continue" });
        expect(next.text).toMatch(/^stopped \(breakpoint\) in thread \d+ at late\.py:4 in <module>/);
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    });

    it("a step after status showed it steps from there", { timeout: 120_000 }, async () => {
      const { run, call, sessionPids } = await stoppedUnseen({ resumeWaitMs: 10_000 });
      const pids = sessionPids();
      try {
        const status = await call({ op: "status" });
        expect(status.text).toMatch(/\nstopped \(breakpoint\) in thread \d+ at late\.py:3 in <module>/);
        const step = await call({ op: "step_over" });
        expect(step.text).toMatch(/^stopped \(step\) in thread \d+ at late\.py:4 in <module>/);
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    });
  },
  (dir) => {
    // Line 3 is reached once, 1.5 s after the start: after the breakpoints' wait.
    const late = ["import time", "time.sleep(1.5)", "x = 1", "y = 2", "print('after', flush=True)", ""];
    writeFileSync(join(dir, "late.py"), late.join("\n"));
  },
);

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

describe.skipIf(!lldb && !ci)("breakpoints set while the program runs, on lldb-dap", () => {
  it("report the stop at one the program reaches at once", { timeout: 120_000 }, async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBe(true);
    const dir = workspace("c");
    const spin = [
      "#include <unistd.h>",
      "int main(void) {",
      "  volatile long n = 0;",
      "  for (;;) {",
      "    n++;",
      "    usleep(10000);",
      "  }",
      "}",
      "",
    ];
    writeFileSync(join(dir, "spin.c"), spin.join("\n"));
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "spin"), join(dir, "spin.c")]);
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 500, breakpointHitMs: 20_000 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "spin" });
      expect(launch.text, launch.text).toContain("still running");
      pids = sessionPids();
      const set = await call({ op: "breakpoints", file: "spin.c", lines: [5] });
      expect(set.text).toContain("line 5: verified");
      expect(set.text).toMatch(
        /\nthe program has stopped \(breakpoint\) in thread \d+ at spin\.c:5 in main \(frame \d+\)\n {2}5 \| n\+\+;/,
      );
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    expect(remaining(pids)).toEqual([]);
  });
});
