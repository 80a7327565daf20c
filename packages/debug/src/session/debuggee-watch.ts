import { outputTargets, writersOf } from "@tools/registry";
import { descendants, isAlive, processStat, startTime, zombieExit } from "../internal/process-tree.js";
import type { SessionCore } from "./session-core.js";

/** How often a launched program's process is looked at, in ms. */
const pollMs = 250;
/** How long the adapter gets to report an exit itself (with the exit code) once the process is gone, in ms. */
const reportGraceMs = 1000;

/**
 * Watches a launched program's process, learnt from the adapter's `process` event, and ends the
 * session when it is gone but the adapter does not say so: debugpy reports an exit only once the
 * program's output has closed, and a background process the program left (`setsid cmd`) may keep
 * that open for good. Polled: Node cannot wait for a process that is not its own child.
 *
 * Also remembers what the program's output is open on, when that is the program's own (nobody
 * but the program and the adapter's side writes there), so that the session's end finds and
 * ends what the program left running (see `shutdown`).
 */
export function watchDebuggee(core: SessionCore, pid: number): void {
  const started = core.pidStarts.get(pid);
  const parent = processStat(pid)?.ppid;
  // The launcher or the adapter that started it: it may hold the program's output too.
  if (parent !== undefined && parent > 1) core.adapterSide.add(parent);
  const targets = outputTargets(pid);
  const adapterPids = new Set([
    pid,
    // What it started already (it may be running its code by now).
    ...descendants(pid),
    ...core.adapterSide,
    core.options.adapter.child?.pid,
    core.options.adapter.adapterPid(),
  ]);
  // A terminal or a pipe others write to as well is not the program's own: nothing to learn there.
  if (writersOf(targets).every((writer) => adapterPids.has(writer.pid))) core.outputTargets.push(...targets);
  const timer = setInterval(() => {
    if (core.terminating || core.state === "exited" || core.state === "ended") {
      clearInterval(timer);
      return;
    }
    if (started !== undefined && startTime(pid) === started && isAlive(pid)) return;
    clearInterval(timer);
    // Still a zombie (its parent has not reaped it: delve while paused): how it ended.
    if (started !== undefined && startTime(pid) === started) core.seenExit ??= zombieExit(pid);
    setTimeout(() => core.programExited(), reportGraceMs).unref();
  }, pollMs);
  timer.unref();
}
