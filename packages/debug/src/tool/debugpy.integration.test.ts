import { expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { remaining, debugRun, expectStep } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

describeDebugpy("debug tool on debugpy", (project) => {
  it("stops on a breakpoint set before launch, inspects, steps and runs to the exit code", async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    try {
      const before = await call({ op: "stack" });
      expect(before.code).toBe("DEBUG_NO_SESSION");

      const set = await call({ op: "breakpoints", file: "app.py", lines: [6] });
      expect(set.text).toContain("pending");

      const launch = await call({ op: "launch", program: "app.py", args: ["x"] });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("stopped (breakpoint)");
      expect(launch.text).toContain("app.py:6 in compute");
      expect(launch.text).toContain("total += v");
      expect(launch.text).toMatch(/line 6: verified/);
      const pids = sessionPids();
      expect(pids.length).toBeGreaterThan(0);

      const second = await call({ op: "launch", program: "app.py" });
      expect(second.code).toBe("DEBUG_SESSION_EXISTS");
      expect(second.text).toContain("debugpy: ");
      expect(second.text).toContain("app.py x");

      const stack = await call({ op: "stack" });
      expect(stack.text).toMatch(/#0 frame \d+ compute at app.py:6/);
      expect(stack.text).toMatch(/#1 frame \d+ main at app.py:12/);
      const frameId = Number(/#0 frame (\d+)/.exec(stack.text)![1]);

      const scopes = await call({ op: "scopes", frame_id: frameId });
      expect(scopes.text).toMatch(/Locals: reference \d+/);
      const locals = Number(/Locals: reference (\d+)/.exec(scopes.text)![1]);
      const variables = await call({ op: "variables", reference: locals });
      expect(variables.text).toMatch(/total \(int\) = 0/);
      expect(variables.text).toMatch(/values \(list\) = \[1, 2, 3, 4\]/);

      const evaluated = await call({ op: "evaluate", expression: "len(values) + 100" });
      expect(evaluated.text).toContain("104");

      await expectStep(call, "step_over", "app.py:5", "5 | for v in values:");

      // References from the earlier stop are refused after a resume.
      const stale = await call({ op: "variables", reference: locals });
      expect(stale.code).toBe("DEBUG_STALE_REFERENCE");

      const cleared = await call({ op: "breakpoints", file: "app.py", lines: [] });
      expect(cleared.text).toContain("cleared");

      await expectStep(call, "step_out", "app.py:12 in main", "12 | result = compute(xs)");

      const stepIn = await call({ op: "step_in" });
      expect(stepIn.text).toContain("stopped (step)");

      // debugpy treats a non-zero sys.exit as an uncaught exception: the stop says so.
      const exiting = await call({ op: "continue" });
      expect(exiting.text).toContain("stopped on an exception");
      expect(exiting.text).toContain("SystemExit");

      const done = await call({ op: "continue" });
      expect(done.text).toContain("exited with code 3");

      const output = await call({ op: "output" });
      expect(output.text).toContain("sum 10");

      const after = await call({ op: "stack" });
      expect(after.code).toBe("DEBUG_NO_SESSION");
      expect(after.text).toContain("exited with code 3");
      expect(remaining(pids)).toEqual([]);
    } finally {
      await run.dispose();
    }
  });

  it("says a statement or a call without a value was evaluated, and points to what it printed", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.text).toContain("app.py:6 in compute");

      const assigned = await call({ op: "evaluate", expression: "x = 5" });
      expect(assigned.isError, assigned.text).toBe(false);
      expect(assigned.text).toBe("(evaluated; no value)");
      const value = await call({ op: "evaluate", expression: "x + 1" });
      expect(value.text).toBe("6 (int)");

      const printed = await call({ op: "evaluate", expression: "print('side effect', flush=True)" });
      expect(printed.text).toMatch(
        /^\(evaluated; no value\)(\n\(it wrote 1 line of output: read with \{"op":"output","cursor":0\}\))?$/,
      );
      // debugpy's output event may come after the evaluate's answer (the note above is then not
      // there either): read until it came.
      await expect
        .poll(async () => (await call({ op: "output" })).text, { timeout: 5_000 })
        .toContain("side effect");
    } finally {
      await run.dispose();
    }
  });

  it("counts a large container's items by its len(), not by the adapter's partial list", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.text).toContain("stopped (breakpoint)");
      const list = await call({ op: "evaluate", expression: "list(range(1000))" });
      const reference = Number(/\[reference (\d+)\]/.exec(list.text)![1]);
      // debugpy lists the first 100 items (and gives no count): 50 shown, 950 more exist.
      const children = await call({ op: "variables", reference });
      expect(children.text).toMatch(/^000 \(int\) = 0\n/);
      // Its len() entry gives the count, and is no item itself.
      expect(children.text).toContain(
        "049 (int) = 49\n… 950 more: 50 of 1000 shown; " +
          'evaluate reads any of them, e.g. {"op":"evaluate","expression":"list(range(1000))[50]"}',
      );
    } finally {
      await run.dispose();
    }
  });

  it("says so when it stops on an exception, and dispose leaves no process", async () => {
    const { run, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "crash.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("stopped on an exception");
      expect(launch.text).toContain("ZeroDivisionError");
      expect(launch.text).toContain("crash.py:2 in divide");
      expect(launch.text).toContain("2 | return a / b");
      const inspect = await call({ op: "evaluate", expression: "a + 41" });
      expect(inspect.text).toContain("42");
      pids = sessionPids();
      expect(pids.length).toBeGreaterThan(1);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("refuses to launch a program that is missing, a FIFO or a folder debugpy cannot run, starting nothing", async () => {
    const { run, call, supervisor } = debugRun(project.dir);
    try {
      execFileSync("mkfifo", [join(project.dir, "fifo.py")]);
      mkdirSync(join(project.dir, "plain"));
      const missing = await call({ op: "launch", program: "python/nonexist.py" });
      expect(missing.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(missing.text).toBe(
        "cannot launch python/nonexist.py: it does not exist in the working directory; " +
          "give the program's path relative to it",
      );
      const fifo = await call({ op: "launch", program: "fifo.py" });
      expect(fifo.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(fifo.text).toBe(
        "cannot launch fifo.py: it is a FIFO, socket or device, not a program; give the program's file or folder",
      );
      const folder = await call({ op: "launch", program: "plain", adapter: "debugpy" });
      expect(folder.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(folder.text).toBe(
        "cannot launch plain: it is a folder without __main__.py; give the .py file to run",
      );
      expect(supervisor.conversation("conv-1").session).toBeUndefined();
      expect(supervisor.conversation("conv-1").last).toBeUndefined();
      // A folder with __main__.py is a program python runs.
      writeFileSync(join(project.dir, "plain", "__main__.py"), "print('main ran')\n");
      const runs = await call({ op: "launch", program: "plain", adapter: "debugpy" });
      expect(runs.isError, runs.text).toBe(false);
      expect(runs.text).toContain("the program exited with code 0");
      expect(runs.text).toContain("main ran");
    } finally {
      await run.dispose();
    }
  });

  it("lets a program's python subprocess and fork child run free to the program's exit", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      // With debugpy's subProcess on, the child waits for good for a debugger to attach.
      const spawned = await call({ op: "launch", program: "parent.py" });
      expect(spawned.isError, spawned.text).toBe(false);
      expect(spawned.text).toContain("the program exited with code 0");
      expect(spawned.text).toContain("parent got: child running ['x'] 0");
      const forked = await call({ op: "launch", program: "forker.py" });
      expect(forked.isError, forked.text).toBe(false);
      expect(forked.text).toContain("the program exited with code 0");
      expect(forked.text).toContain("in child");
      expect(forked.text).toContain("parent after child");
    } finally {
      await run.dispose();
    }
  });

  it("names a fork child held at a breakpoint when the program does not stop, and terminate ends it", async () => {
    // Line 5 runs only in the fork child, which the session does not follow: it waits there for
    // good, and the parent with it (in waitpid), so no stop ever comes.
    const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 8000, resumeWaitMs: 3000 });
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "forker.py", lines: [5] });
      const launch = await call({ op: "launch", program: "forker.py" });
      expect(launch.text).toContain("still running after 8 s (no stop yet)");
      const child =
        /the program started 1 process the session does not follow \(pid (\d+): a fork of the program\): debugpy stops only in the program's own process; a fork that reaches a breakpoint waits there for good/.exec(
          launch.text,
        );
      expect(child, launch.text).not.toBeNull();
      pids = sessionPids();
      expect(pids).toContain(Number(child![1]));
      const pause = await call({ op: "pause" });
      expect(pause.text).toContain(`does not follow (pid ${child![1]}: a fork of the program)`);
      const ended = await call({ op: "terminate" });
      expect(ended.isError, ended.text).toBe(false);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("names a program a subprocess runs by its command, without a fork child's hold at a breakpoint", async () => {
    // `sleep` runs no Python: debugpy does not trace it, so it can hold nothing at a breakpoint.
    writeFileSync(
      join(project.dir, "runs_sleep.py"),
      "import subprocess\n\nsubprocess.run(['sleep', '60'])\n",
    );
    const { run, call, sessionPids } = debugRun(project.dir, { firstStopMs: 3000 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "runs_sleep.py" });
      const line = launch.text.split("\n").find((text) => text.startsWith("  the program started"));
      const child =
        /^ {2}the program started 1 process the session does not follow \(pid (\d+): sleep\): /.exec(
          line ?? "",
        );
      expect(child, launch.text).not.toBeNull();
      expect(line).toBe(
        `  the program started 1 process the session does not follow (pid ${child![1]}: sleep): ` +
          "debugpy stops only in the program's own process; 'terminate' ends them all",
      );
      pids = [...sessionPids(), Number(child![1])];
      const ended = await call({ op: "terminate" });
      expect(ended.isError, ended.text).toBe(false);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("launches a package folder with __main__.py under debugpy without adapter", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "pkg" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("started debugpy: pkg");
      expect(launch.text).toContain("the program exited with code 0");
      expect(launch.text).toContain("package main ran");
    } finally {
      await run.dispose();
    }
  });

  it("says a program killed by a signal was killed, not that it exited with code 247", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "killed.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("about to die");
      expect(launch.text).toContain(
        "the program was killed by signal SIGKILL (9) (exit code 247, which os._exit(247) would also give); the session has ended",
      );
      const after = await call({ op: "stack" });
      expect(after.text).toContain("the program was killed by signal SIGKILL (9)");
    } finally {
      await run.dispose();
    }
  });

  it("bounds the breakpoint listing of launch, status and breakpoints, counting what is left out", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      writeFileSync(
        join(project.dir, "long.py"),
        Array.from({ length: 120 }, (_, i) => `x${i} = ${i}`).join("\n") + "\n",
      );
      const lines = Array.from({ length: 100 }, (_, i) => i + 1);
      await call({ op: "breakpoints", file: "long.py", lines });
      const launch = await call({ op: "launch", program: "long.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("long.py:1");
      expect(launch.text.match(/^ {2}line \d+: /gm)).toHaveLength(30);
      expect(launch.text).toContain(
        "  line 30: verified  | x29 = 29\n… 70 more breakpoints in 1 file not shown: 70 verified\n",
      );
      const status = await call({ op: "status" });
      expect(status.text.match(/^ {2}line \d+: /gm)).toHaveLength(30);
      expect(status.text).toMatch(/\n… 70 more breakpoints in 1 file not shown: 70 verified$/);
      // Set while the session runs: the adapter's answers, bounded the same way.
      const again = await call({ op: "breakpoints", file: "long.py", lines });
      expect(again.text.split("\n")).toHaveLength(32);
      expect(again.text).toMatch(/\n {2}… 70 more breakpoints not shown: 70 verified$/);
    } finally {
      await run.dispose();
    }
  });
});
