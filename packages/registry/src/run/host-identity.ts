import { readFileSync, readlinkSync } from "node:fs";
import { threadId } from "node:worker_threads";
import { processStat } from "./process-tree.js";

// Who this process and thread are, in a form another process can check later: the id and start
// time (a reused id has another start) and the thread. Process marks and write journals carry it.

let hostPrefix: string | undefined;

/**
 * `<pid>-<start>-<thread>-`: what every name issued by this thread of this process starts with
 * (another process's or thread's never does). `<start>` is field 22 of /proc/<pid>/stat, or `0`
 * where /proc is not there.
 */
export function threadPrefix(): string {
  hostPrefix ??= `${process.pid}-${processStat(process.pid)?.start ?? "0"}-${threadId}-`;
  return hostPrefix;
}

/** The process (id and start) a name that begins with a {@link threadPrefix} was issued by. */
export function ownerOf(name: string): { pid: number; start: string; prefix: string } | undefined {
  const found = /^(\d+)-(\d+)-(\d+)-/.exec(name);
  return found ? { pid: Number(found[1]), start: found[2]!, prefix: found[0] } : undefined;
}

/**
 * Whether the process `pid` that started at `start` has ended: no process with that id, a
 * zombie, or one with another start (the id was given again). Without /proc (start `0`) only
 * whether the id is in use is known.
 */
export function processGone(pid: number, start: string): boolean {
  if (start !== "0") {
    const stat = processStat(pid);
    return stat === undefined || stat.state === "Z" || stat.start !== start;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

let scope: string | undefined;

/**
 * The boot (`/proc/sys/kernel/random/boot_id`) and pid namespace (`/proc/self/ns/pid`) this
 * process runs in: a journal's process ids mean something only there. Another container's or
 * sandbox's process sharing the temporary folder may be alive although no process here has its
 * id, and after a reboot every id is new. "" where neither can be read.
 */
export function hostScope(): string {
  if (scope !== undefined) return scope;
  let boot = "";
  let namespace = "";
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    // No /proc: the id and start time are all there is.
  }
  try {
    namespace = readlinkSync("/proc/self/ns/pid");
  } catch {
    // As above.
  }
  scope = `${boot} ${namespace}`.trim();
  return scope;
}
