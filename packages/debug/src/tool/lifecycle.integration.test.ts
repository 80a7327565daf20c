import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alive,
  remaining,
  ci,
  debugRun,
  identify,
  identifyReported,
  killLeftovers,
  removeWorkspace,
  workspace,
} from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";
import type { ProcessIdentity } from "@tools/registry";
import { descendants, isAlive } from "../internal/process-tree.js";
import { python } from "../__fixtures__/backends.js";

/** The processes under this one running debugpy or a fixture program (adapters and debuggees). */
function ownDebugProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return isAlive(pid) && /debugpy|loop\.py/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    } catch {
      return false;
    }
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * The inode of the socket listening on `port` (/proc/net/tcp: column 2 the local address:port,
 * column 4 the state, 0A = LISTEN, column 10 the inode), or undefined when none listens. Read, not
 * probed: a probing connection would be taken by debugpy as its one client.
 */
function listenerInode(port: number): string | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n")) {
    const columns = line.trim().split(/\s+/);
    if (columns[1]?.endsWith(`:${hex}`) && columns[3] === "0A") return columns[9];
  }
  return undefined;
}

/**
 * Whether the socket `inode` is held by debugpy's adapter serving `port` (its command line names
 * `--port <port>`): `python -m debugpy --listen` starts it as a daemon of its own (its parent
 * gone, its own session), out of the started process's tree.
 */
function debugpyListens(inode: string, port: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    const holds = fds.some((fd) => {
      try {
        return readlinkSync(`/proc/${entry}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (command.some((word) => word.includes("debugpy")) && command.join(" ").includes(`--port ${port}`))
        return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/**
 * Starts `python -m debugpy --listen 127.0.0.1:<port> loop.py` in `dir`, owned by `run`, and
 * resolves with the port and the process once debugpy listens there. The port is one the system
 * had free a moment before: another suite running beside this one (a kernel's ports, a server)
 * may take it first;
 * debugpy then cannot listen, and whatever does there is not debugpy (an attach to it waited 15 s
 * for an answer to `initialize`). So the listener must be debugpy's adapter for that port, else
 * the start is tried again on another port (3 tries, each bounded).
 */
async function startDebugpyListening(
  dir: string,
  run: ReturnType<typeof debugRun>["run"],
): Promise<{ port: number; target: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const target = spawn(
      "/usr/bin/python3",
      ["-m", "debugpy", "--listen", `127.0.0.1:${port}`, join(dir, "loop.py")],
      {
        cwd: dir,
        detached: true,
        stdio: "ignore",
      },
    );
    run.ownProcess(target, { group: true, graceMs: 500 });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const inode = listenerInode(port);
      if (inode !== undefined && debugpyListens(inode, port)) return { port, target };
      const exited = target.exitCode !== null || target.signalCode !== null;
      if (exited || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    target.kill("SIGKILL");
    if (attempt === 3)
      throw new Error(`debugpy did not listen on a port of its own in ${attempt} tries (last ${port})`);
  }
}

describeDebugpy("debug session lifecycle (debugpy)", (project) => {
  it("reports a program that exits before any breakpoint", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "early.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("the program exited with code 0");
      expect(launch.text).toMatch(/recent output:\n[^]*done early/);
      const output = await call({ op: "output" });
      expect(output.text).toContain("done early");
      const launchAgain = await call({ op: "launch", program: "early.py" });
      expect(launchAgain.isError, launchAgain.text).toBe(false);
    } finally {
      await run.dispose();
    }
  });

  it("a launch cancelled while it starts answers at once and leaves no session nor process", async () => {
    const { run, registry, supervisor } = debugRun(project.dir);
    try {
      const controller = new AbortController();
      // Cancelled as soon as the tool says it is launching (the call has reached the tool).
      const off = registry.on((event) => {
        if (event.type === "call-progress") controller.abort(new Error("the operator pressed stop"));
      });
      await registry.invoke(run, { tool: "debug", args: { op: "breakpoints", file: "loop.py", lines: [5] } });
      const launch = await registry.invoke(run, {
        tool: "debug",
        args: { op: "launch", program: "loop.py" },
        signal: controller.signal,
      });
      off();
      expect(launch.error?.code).toBe("CANCELLED");
      // A launch right after (its lane freed by the cancel, the first still detecting) is not
      // ended by the first one finishing: that one starts nothing once cancelled.
      const again = await registry.invoke(run, { tool: "debug", args: { op: "launch", program: "loop.py" } });
      expect(resultText(again)).toContain("stopped (breakpoint)");
      await new Promise((resolve) => setTimeout(resolve, 500));
      const status = await registry.invoke(run, { tool: "debug", args: { op: "status" } });
      expect(resultText(status)).toMatch(/^session debugpy: loop\.py/);
      await registry.invoke(run, { tool: "debug", args: { op: "terminate" } });
      // Nothing of either launch is left (bounded wait).
      const state = supervisor.conversation("conv-1");
      for (
        let tries = 0;
        tries < 1_000 && (state.session !== undefined || ownDebugProcesses().length > 0);
        tries++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(state.session).toBeUndefined();
      expect(ownDebugProcesses()).toEqual([]);
    } finally {
      await run.dispose();
    }
  });

  it("ends the session at the TTL and says why on the next call", async () => {
    const { run, call, supervisor, sessionPids } = debugRun(project.dir, { ttlMs: 4000 });
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      const launch = await call({ op: "launch", program: "loop.py" });
      expect(launch.text).toContain("stopped (breakpoint)");
      pids = sessionPids();
      const session = supervisor.conversation("conv-1").session!;
      await new Promise<void>((resolve) => session.onEnd(() => resolve()));
      const after = await call({ op: "stack" });
      expect(after.code).toBe("DEBUG_NO_SESSION");
      expect(after.text).toContain("hard limit of 4 s per session (TTL)");
      expect(remaining(pids)).toEqual([]);
    } finally {
      await run.dispose();
    }
  });

  it("reports a program that exits leaving a process on its output, and ends that process", async () => {
    const { run, call } = debugRun(project.dir);
    let left: number | undefined;
    let leftover: ProcessIdentity | undefined;
    try {
      const launch = await call({ op: "launch", program: "daemon.py" });
      left = Number(/left (\d+)/.exec(launch.text)?.[1]);
      leftover = identifyReported(left, ["sleep", "600"]);
      expect(launch.isError, launch.text).toBe(false);
      // Its exit code is told when the adapter's exit event or the process's own end was seen
      // before the session ended, which the daemon holding its output makes a race.
      expect(launch.text).toMatch(
        /the program exited(?: with code 0)?; the session has ended, and with it 1 background process the program had left running/,
      );
      expect(leftover, `the process it left (${left}) still runs`).toBeUndefined();
      const status = await call({ op: "status" });
      expect(status.text).toMatch(
        /ended because the program exited(?: with code 0)? \(it left 1 background process running, ended with the session\)/,
      );
      const pause = await call({ op: "pause" });
      expect(pause.code).toBe("DEBUG_NO_SESSION");
    } finally {
      // Should the session have left it, the test does not (the process it reported, not its pid's next owner).
      killLeftovers([leftover]);
      await run.dispose();
    }
  });

  it("a pause that cannot stop a program blocked in a call says so, and does not tell to pause", async () => {
    const { run, call } = debugRun(project.dir, { firstStopMs: 1000, resumeWaitMs: 2000 });
    try {
      const launch = await call({ op: "launch", program: "sleeper.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("still running after 1 s (no stop yet); use op 'pause' to stop it");
      const pause = await call({ op: "pause" });
      expect(pause.isError, pause.text).toBe(false);
      expect(pause.text).toBe(
        "pause was sent but the program did not stop within 2 s (it may be blocked in a system call or native code); " +
          "try pause again, or terminate",
      );
    } finally {
      await run.dispose();
    }
  });

  it("a TTL reached while launch waits for a stop is the reason launch gives", async () => {
    const { run, call } = debugRun(project.dir, { ttlMs: 10_000, firstStopMs: 50_000 });
    try {
      const launch = await call({ op: "launch", program: "loop.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("the session ended: it reached the hard limit of 10 s per session (TTL)");
      expect(launch.text).not.toContain("exited");
    } finally {
      await run.dispose();
    }
  });

  it("ends the session cleanly when the adapter crashes", async () => {
    const { run, call, supervisor, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      await call({ op: "launch", program: "loop.py" });
      pids = sessionPids();
      const session = supervisor.conversation("conv-1").session!;
      const ended = new Promise<string>((resolve) => session.onEnd(resolve));
      expect(killLeftovers(identify([session.adapterPid!]))).toBe(1);
      expect(await ended).toContain("the debug adapter exited unexpectedly (SIGKILL)");
      const after = await call({ op: "continue" });
      expect(after.code).toBe("DEBUG_NO_SESSION");
      expect(after.text).toContain("exited unexpectedly");
      expect(remaining(pids)).toEqual([]);
    } finally {
      await run.dispose();
    }
  });

  it("attaches to `python -m debugpy --listen`, pauses a running program and leaves it running", async () => {
    const { run, call } = debugRun(project.dir, { resumeWaitMs: 1000 });
    const { port, target } = await startDebugpyListening(project.dir, run);
    try {
      await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      const attach = await call({ op: "attach", port, adapter: "debugpy" });
      expect(attach.isError, attach.text).toBe(false);
      expect(attach.text).toContain("stopped (breakpoint)");
      expect(attach.text).toContain("loop.py:5");
      expect(attach.text).toContain("5 | n += 1");
      const n = await call({ op: "evaluate", expression: "n >= 0" });
      expect(n.text).toContain("True");

      await call({ op: "breakpoints", file: "loop.py", lines: [] });
      const running = await call({ op: "continue" });
      expect(running.text).toContain("still running");
      const stack = await call({ op: "stack" });
      expect(stack.code).toBe("DEBUG_NOT_STOPPED");
      const paused = await call({ op: "pause" });
      expect(paused.text).toMatch(/^paused in thread \d+ at loop\.py:\d+ in <module>/);
      // Wherever in the loop it stopped, the report carries that line's text.
      const pausedLine = /\n {2}(4 \| while True:|5 \| n \+= 1|6 \| time\.sleep\(0\.05\))/;
      expect(paused.text).toMatch(pausedLine);
      const again = await call({ op: "pause" });
      expect(again.text).toContain("already paused");
      expect(again.text).toMatch(pausedLine);

      const terminated = await call({ op: "terminate" });
      expect(terminated.isError, terminated.text).toBe(false);
      expect(terminated.text).toBe(
        `detached (debugpy: attached to port ${port}); the program (pid ${target.pid}) keeps running`,
      );
      // An attached debuggee is not ours to kill: it keeps running after the session.
      expect(alive([target.pid!])).toEqual([target.pid]);
    } finally {
      await run.dispose();
    }
    expect(alive([target.pid!])).toEqual([]);
  });
});

describe.skipIf(!python && !ci)("debug attach to a port that is not the root marker's adapter", () => {
  let dir: string;
  beforeAll(() => {
    expect(python, "python3-debugpy must be installed").toBe(true);
    // go.mod names delve; the port is debugpy's.
    dir = workspace("go");
    copyFileSync(new URL("../__fixtures__/python/loop.py", import.meta.url), join(dir, "loop.py"));
  });
  afterAll(() => removeWorkspace(dir));

  const listen = async (run: ReturnType<typeof debugRun>["run"]): Promise<number> => {
    return (await startDebugpyListening(dir, run)).port;
  };

  it("attaches as debugpy when debugpy answers, sending the Python breakpoints", async () => {
    const { run, call } = debugRun(dir);
    try {
      const port = await listen(run);
      await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      const attach = await call({ op: "attach", port });
      expect(attach.isError, attach.text).toBe(false);
      expect(attach.text).toContain(`started debugpy: attached to port ${port}`);
      expect(attach.text).toContain(
        `port ${port} answered as debugpy, not as the delve the root marker named`,
      );
      expect(attach.text).toContain("line 5: verified");
      expect(attach.text).toContain("stopped (breakpoint)");
      expect(attach.text).toContain("loop.py:5");
      const status = await call({ op: "status" });
      expect(status.text).toContain("debugpy: attached to port");
    } finally {
      await run.dispose();
    }
  });

  it("refuses a forced adapter the port does not serve, saying which one does", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      const port = await listen(run);
      const attach = await call({ op: "attach", port, adapter: "delve" });
      expect(attach.isError).toBe(true);
      // A refusal, not a failed launch: its own code, and no launch failure's trailer.
      expect(attach.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(attach.text).toContain(
        `port ${port} is served by debugpy, not delve; attach with adapter 'debugpy' (or leave adapter out)`,
      );
      expect(attach.text).not.toContain("failed");
      expect(attach.text).not.toContain("(the program wrote no output)");
      expect(supervisor.conversation("conv-1").session).toBeUndefined();
    } finally {
      await run.dispose();
    }
  });
});
