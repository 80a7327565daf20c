import { rmSync } from "node:fs";
import {
  descendantsOf,
  processStat,
  settledMarkedProcesses,
  signalGroup,
  signalProcesses,
  writersOf,
  type ProcessIdentity,
} from "@tools/registry";
import {
  childrenOf,
  descendants,
  isAlive,
  signalPid,
  startTime,
  waitGone,
} from "../internal/process-tree.js";
import type { SessionCore } from "./session-core.js";

/**
 * Ends the session: disconnect (terminating a launched debuggee), a short wait, then SIGKILL
 * for whatever remains of the adapter's tree and the debuggee, and removal of temporary files.
 * Run once, through {@link SessionCore.terminate}; never throws.
 */
export async function shutdown(core: SessionCore, why: string | (() => string)): Promise<void> {
  const { options } = core;
  const { adapter } = options;
  const child = adapter.child;
  const exitedNow = (): boolean => !child || child.exitCode !== null || child.signalCode !== null;
  // The program's tree as it is now, before the disconnect ends the program: its children are
  // then reparented to PID 1, out of reach of a look at the tree afterwards (a program that
  // started a process after its first stop, when the session last looked).
  const same = (pid: number): boolean => {
    const started = core.pidStarts.get(pid);
    return started !== undefined && startTime(pid) === started;
  };
  // Each with its start time: one that ends during the disconnect (up to 3 s) frees its pid,
  // which another process may have by the time the kills below come.
  const before = options.terminateDebuggee
    ? [...[...core.debuggeePids].filter(same), ...(child?.pid ? [child.pid] : [])].flatMap((pid) =>
        descendantsOf(pid),
      )
    : [];
  // What the program left running: what still writes to its output, also after it left its
  // session and PID 1 adopted it (`setsid cmd &`), out of reach of every tree above; under the
  // reaper shim, the orphans it adopted (all but the adapter are); and what carries the adapter's
  // process mark outside the adapter's tree: a daemon that holds no output of the program, or
  // one whose program exited before the session learnt its output (lldb-dap's late `process`).
  // The mark is looked for until a look settles (a few looks, 10 ms apart): one look misses a
  // daemon it meets in the middle of an exec, whose environment then reads empty.
  const exited = core.state === "exited";
  const strays = new Map<number, string | undefined>();
  const findStrays = async (): Promise<void> => {
    if (!options.terminateDebuggee) return;
    const marked = adapter.mark === undefined ? [] : await settledMarkedProcesses(adapter.mark);
    const ours = new Set([child?.pid, adapter.adapterPid(), ...core.adapterSide]);
    const output = [...core.outputTargets, ...(adapter.programOutput ?? [])];
    const adopted = adapter.reaps && child?.pid ? childrenOf(child.pid) : [];
    const adapterTree = new Set(child?.pid ? [child.pid, ...descendants(child.pid)] : []);
    const outside = marked.filter(({ pid }) => !adapterTree.has(pid) && !ours.has(pid) && !strays.has(pid));
    // Each marked one with the start time it was found with: it may have ended since a look found it.
    for (const { pid, start } of outside) strays.set(pid, start);
    for (const pid of [...writersOf(output).map((writer) => writer.pid), ...adopted]) {
      if (!ours.has(pid) && !strays.has(pid)) strays.set(pid, startTime(pid));
    }
  };
  await findStrays();
  // Alive now, before the disconnect: under the reaper shim, the adapter's exit makes the shim
  // kill what it adopted (delve's program's orphans) before the second look below.
  // Each still the process it was when found (a pid freed since may be another's).
  const running = (pid: number): boolean => {
    const started = strays.get(pid);
    return started !== undefined && startTime(pid) === started && isAlive(pid);
  };
  const aliveBefore = [...strays.keys()].filter(running);
  if (!adapter.connection.closed) {
    await adapter.connection
      .request("disconnect", { restart: false, terminateDebuggee: options.terminateDebuggee }, 2000)
      .catch(() => undefined);
  }
  if (child && !exitedNow() && options.exitsOnDisconnect !== false) {
    await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
  await findStrays();
  // After its exit they are all the program left; while it ran, the program itself is one.
  if (exited) core.leftBehind = new Set([...aliveBefore, ...[...strays.keys()].filter(running)]).size;
  // Kill the deepest processes first, while their parents still live to reap them.
  const tree = child?.pid ? descendantsOf(child.pid) : [];
  // Learnt earlier (up to the session's 30 minutes): only those still the same process.
  const owned: ProcessIdentity[] = options.terminateDebuggee
    ? [...core.debuggeePids, ...core.knownPids]
        .filter(same)
        .map((pid) => ({ pid, start: core.pidStarts.get(pid)! }))
    : [];
  // Each killed only while it is still the process it was when found (see signalProcesses): the
  // kills wait up to 500 ms each, and a pid freed meanwhile may be another's.
  const victims = [
    ...new Map(
      [...tree.reverse(), ...before.reverse(), ...owned].map((found) => [
        `${found.pid}:${found.start}`,
        found,
      ]),
    ).values(),
  ].filter(({ pid, start }) => {
    const stat = processStat(pid);
    return stat?.start === start && stat.state !== "Z";
  });
  // One at a time, deepest first, each reaped by its still-living parent (a launcher, the
  // adapter) before that parent dies: an unreaped child is reparented to PID 1 and, where
  // PID 1 does not reap (containers), stays a zombie for good.
  if (adapter.reaps) {
    // The shim reaps the whole tree: kill it all at once and let the shim exit.
    signalProcesses(victims, "SIGKILL");
    if (child && !exitedNow())
      await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
  } else {
    for (const victim of victims) {
      if (signalProcesses([victim], "SIGKILL") > 0) await waitGone([victim.pid], 500, true);
    }
  }
  // Orphans: PID 1 (or the reaper shim) reaps them, not a parent of ours.
  const orphans = [...strays].filter(([pid, started]) => started !== undefined && startTime(pid) === started);
  for (const [pid] of orphans) signalPid(pid, "SIGKILL");
  await waitGone(
    orphans.map(([pid]) => pid),
    500,
  );
  if (child?.pid && !exitedNow()) {
    signalGroup(child, "SIGKILL");
    await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
  adapter.socket?.destroy();
  const reason = typeof why === "function" ? why() : why;
  adapter.connection.close(reason);
  for (const path of options.cleanupPaths ?? []) rmSync(path, { recursive: true, force: true });
  core.invalidate();
  core.state = "ended";
  core.endReason = reason;
  core.settle({ kind: "ended", reason });
  for (const listener of core.endListeners.splice(0)) listener(reason);
}
