import { readdirSync, readFileSync } from "node:fs";

/** A process as found in /proc: its id and its start time, which tells a reused id apart. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot at which it started. */
  readonly start: string;
}

/** Parent id and start time of `pid` from /proc, or undefined when it is gone (or not Linux). */
function statOf(pid: number): { ppid: number; start: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in brackets and may hold spaces or brackets itself.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  const start = fields[19];
  return Number.isInteger(ppid) && start !== undefined ? { ppid, start } : undefined;
}

/**
 * Every live descendant of `pid` (children, their children, …), found through the parent ids in
 * /proc: also those that left its process group or session (`setsid`, `start_new_session`,
 * `detached: true`), which a signal to the group misses. A process whose parent exited before
 * this call (a daemon's double fork) is the init process's child by then and cannot be found.
 * Empty where /proc is not there.
 */
export function descendantsOf(pid: number): ProcessIdentity[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, ProcessIdentity[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const child = Number(entry);
    const stat = statOf(child);
    if (stat === undefined) continue;
    const siblings = children.get(stat.ppid);
    const identity = { pid: child, start: stat.start };
    if (siblings) siblings.push(identity);
    else children.set(stat.ppid, [identity]);
  }
  const found: ProcessIdentity[] = [];
  const queue = [pid];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Sends `signal` to each process still running under the same identity (an id reused since is left alone). */
export function signalProcesses(processes: readonly ProcessIdentity[], signal: NodeJS.Signals): void {
  for (const { pid, start } of processes) {
    if (statOf(pid)?.start !== start) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile (ESRCH), or not ours to signal (EPERM).
    }
  }
}
