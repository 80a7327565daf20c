import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signalProcesses } from "@tools/registry";
import { commandLine, processStat } from "../internal/process-tree.js";
import {
  ci,
  debugRun,
  identify,
  remaining,
  removeWorkspace,
  until,
  workspace,
} from "../__fixtures__/harness.js";
import { sentCommands } from "../__fixtures__/sent-commands.js";
import { lldb } from "../__fixtures__/backends.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Pids of the processes this test process started that run debugpy's adapter. */
function debugpyAdapters(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => processStat(pid)?.ppid === process.pid && commandLine(pid)?.includes("debugpy.adapter"));
}

/**
 * Launches `prog` (a breakpoint at line 4), stops lldb-dap once the launch is sent and cancels
 * the launch: the session's end has begun and is held there (its disconnect waits out its bound).
 * Returns the session; its processes are added to `pids`.
 */
async function cancelledLaunchHeldEnding(
  { call, supervisor, sessionPids }: ReturnType<typeof debugRun>,
  sent: () => string[],
  pids: number[],
) {
  await call({ op: "breakpoints", file: "prog.c", lines: [4] });
  const cancel = new AbortController();
  const launching = call({ op: "launch", program: "prog" }, cancel.signal);
  expect(await until(() => sent().includes("launch"), 10_000)).toBe(true);
  const session = supervisor.conversation("conv-1").session!;
  pids.push(...sessionPids());
  expect(signalProcesses(identify([session.adapterPid!]), "SIGSTOP")).toBe(1);
  cancel.abort(new Error("the operator pressed stop"));
  expect((await launching).code).toBe("CANCELLED");
  return session;
}

// A session whose end has begun, held there (lldb-dap stopped: its disconnect waits out its bound).
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: while a cancelled launch's session ends", () => {
  it("a launch waiting for that end whose run is disposed starts nothing once it has ended", async () => {
    const dir = workspace("c");
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
    writeFileSync(join(dir, "app.py"), "print(1)\n");
    const debug = debugRun(dir);
    const { run, supervisor, call } = debug;
    const sent = sentCommands();
    const pids: number[] = [];
    const before = new Set(debugpyAdapters());
    const started: number[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const pid of debugpyAdapters())
          if (!before.has(pid) && !started.includes(pid)) started.push(pid);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      const first = await cancelledLaunchHeldEnding(debug, sent, pids);
      // A launch made now waits for that end; the run ends while it waits.
      const waiting = call({ op: "launch", program: "app.py", adapter: "debugpy" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(first.state).not.toBe("ended");
      await run.dispose();
      expect((await waiting).isError).toBe(true);
      expect(first.state).toBe("ended");
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      watching = false;
      await watch;
      removeWorkspace(dir);
    }
    // Before: once the ended session let it go, the launch of a run already disposed started
    // debugpy's adapter (and probed the interpreters) before it saw its call was gone.
    expect(started).toEqual([]);
    expect(supervisor.conversation("conv-1").session).toBeUndefined();
    // The program, killed while lldb-dap was held, is reaped by PID 1 once lldb-dap is gone.
    await until(() => remaining(pids).length === 0, 5000);
    expect(remaining(pids)).toEqual([]);
  });

  it("terminate while the session ends waits for that end and says so", async () => {
    const dir = workspace("c");
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
    const debug = debugRun(dir);
    const { run, call } = debug;
    const sent = sentCommands();
    const pids: number[] = [];
    try {
      const first = await cancelledLaunchHeldEnding(debug, sent, pids);
      expect(first.state).not.toBe("ended");
      // Before: DEBUG_NO_SESSION, "no debug session is running", while the adapter still ran.
      const terminate = await call({ op: "terminate" });
      expect(terminate.isError, terminate.text).toBe(false);
      expect(terminate.text).toMatch(
        /^.+ was already ending because its launch call was cancelled.*; it has ended: the adapter and the program are gone$/,
      );
      expect(first.state).toBe("ended");
      const after = await call({ op: "terminate" });
      expect(after.code).toBe("DEBUG_NO_SESSION");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    await until(() => remaining(pids).length === 0, 5000);
    expect(remaining(pids)).toEqual([]);
  });

  it("a breakpoints call is kept for the next launch, not sent to the session that is ending", async () => {
    const dir = workspace("c");
    writeFileSync(
      join(dir, "wait.c"),
      "#include <unistd.h>\n\nint main(void) {\n    for (int i = 0; i < 600; i++)\n        sleep(1);\n    return 0;\n}\n",
    );
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "wait"), join(dir, "wait.c")]);
    const { run, supervisor, call, sessionPids } = debugRun(dir, { firstStopMs: 20_000 });
    const sent = sentCommands();
    const pids: number[] = [];
    try {
      const cancel = new AbortController();
      const launching = call({ op: "launch", program: "wait" }, cancel.signal);
      // Configured, the program runs: the launch waits for a first stop that does not come.
      expect(await until(() => sent().includes("configurationDone"), 10_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const first = supervisor.conversation("conv-1").session!;
      pids.push(...sessionPids());
      expect(signalProcesses(identify([first.adapterPid!]), "SIGSTOP")).toBe(1);
      cancel.abort(new Error("the operator pressed stop"));
      expect((await launching).code).toBe("CANCELLED");
      const status = await call({ op: "status" });
      expect(status.text).toContain("ending: its launch call was cancelled");
      const count = sent().length;
      const breakpoints = await call({ op: "breakpoints", file: "wait.c", lines: [5] });
      expect(breakpoints.isError, breakpoints.text).toBe(false);
      expect(breakpoints.text).toBe(
        "wait.c: lines 5 pending; they are sent when the program is launched or attached",
      );
      expect(sent().slice(count)).not.toContain("setBreakpoints");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    // The program, killed while lldb-dap was held, is reaped by PID 1 once lldb-dap is gone.
    await until(() => remaining(pids).length === 0, 5000);
    expect(remaining(pids)).toEqual([]);
  });
});
