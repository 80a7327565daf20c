import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { processStat } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import { DapConnection } from "../dap/dap-connection.js";
import { descendants, startTime } from "../internal/process-tree.js";
import { BreakpointStore } from "./breakpoint-store.js";
import { SessionCore } from "./session-core.js";

// A pid the session's end learnt while the program ran, then freed (the process ended during the
// disconnect, up to 3 s) and given to another process: that one is not the program's.

/**
 * Where the kernel is told which pid it gave out last (root in its pid namespace may write it; the
 * next process gets the next free pid after it): how a pid is made to go to another process at
 * once, rather than after the pids wrapped (32768 on many machines).
 */
const lastPid = "/proc/sys/kernel/ns_last_pid";
const canSteerPids = ((): boolean => {
  try {
    writeFileSync(lastPid, readFileSync(lastPid, "utf8").trim());
    return true;
  } catch {
    return false;
  }
})();

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }
});

/** Starts `sleep 60` with pid `pid` (the kernel gives out the one after ns_last_pid), or fails. */
function sleepWithPid(pid: number): ChildProcess {
  // Put forward again afterwards: the pids freed meanwhile by the machine's other processes (the
  // other suites beside this one) are not given out again at once.
  const counter = Number(readFileSync(lastPid, "utf8"));
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        writeFileSync(lastPid, String(pid - 1));
      } catch {
        break;
      }
      const child = spawn("sleep", ["60"], { stdio: "ignore", detached: true });
      started.push(child);
      if (child.pid === pid) return child;
      child.kill("SIGKILL");
      // Another process took it meanwhile (kept until it ends): try again while it is free.
      if (processStat(pid) !== undefined) break;
    }
    throw new Error(`could not start a process with pid ${pid}`);
  } finally {
    writeFileSync(lastPid, String(Math.max(counter, Number(readFileSync(lastPid, "utf8")))));
  }
}

describe.skipIf(!canSteerPids)("shutdown and a reused pid", () => {
  it("does not kill a process given the pid of the program's child that ended during the disconnect", async () => {
    // The adapter runs the program, whose child ends 300 ms in (reaped by the program), while the
    // session's disconnect waits 2 s for an answer that does not come.
    const adapterChild = spawn("sh", ["-c", "sh -c 'sleep 0.3 & wait; exec sleep 60' & wait"], {
      stdio: "ignore",
      detached: true,
    });
    started.push(adapterChild);
    let program: number | undefined;
    let helper: number | undefined;
    for (let tries = 0; tries < 100 && helper === undefined; tries++) {
      const tree = descendants(adapterChild.pid!);
      if (tree.length >= 2) [program, helper] = tree;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(helper).toBeDefined();
    const adapter: AdapterProcess = {
      connection: new DapConnection(new PassThrough(), new PassThrough()),
      child: adapterChild,
      socket: undefined,
      exited: new Promise((resolve) =>
        adapterChild.once("exit", (code, signal) => resolve({ code, signal })),
      ),
      stderrTail: () => "",
      reaps: false,
      adapterPid: () => adapterChild.pid,
    };
    const core = new SessionCore({
      adapterId: "lldb",
      description: "lldb: prog",
      root: "/tmp",
      adapter,
      breakpoints: new BreakpointStore(),
      resumeWaitMs: 1000,
      terminateDebuggee: true,
      evaluateContext: "watch",
    });
    core.debuggeePids.add(program!);
    core.pidStarts.set(program!, startTime(program!));
    const ending = core.terminate("ended by the test");
    for (let tries = 0; tries < 200 && processStat(helper!) !== undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(processStat(helper!)).toBeUndefined();
    const stranger = sleepWithPid(helper!);
    const strangerExit = new Promise<NodeJS.Signals | null>((resolve) =>
      stranger.once("exit", (_code, signal) => resolve(signal)),
    );
    await ending;
    expect(core.state).toBe("ended");
    const outcome = await Promise.race([
      strangerExit,
      new Promise((resolve) => setTimeout(() => resolve("running"), 300)),
    ]);
    expect(outcome).toBe("running");
  });
});
