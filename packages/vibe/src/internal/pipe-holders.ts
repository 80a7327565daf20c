import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** A process found in /proc: its id and start time (clock ticks after boot), which tells a reused id apart. */
export interface HeldBy {
  readonly pid: number;
  readonly start: string;
}

/**
 * The pipes on the standard output and error of process `pid` (`pipe:[inode]` or `socket:[inode]`
 * as /proc shows them). Read right after spawning, while the process runs: what names its output pipes later,
 * when the process may be gone. Empty where /proc is not there.
 */
export function outputPipes(pid: number | undefined): string[] {
  if (pid === undefined) return [];
  const pipes: string[] = [];
  for (const fd of [1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      // Node's stdio pipes are socket pairs: the child's end has its own inode, which is what
      // the processes that inherited it hold.
      if (target.startsWith("pipe:") || target.startsWith("socket:")) pipes.push(target);
    } catch {
      // Gone already, or not Linux.
    }
  }
  return pipes;
}

function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces; field 22 is the start time.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * Every process other than this one that holds one of `pipes` open: after a child exited, what
 * it left running with its output (also outside its process group or session, and after the
 * init process adopted it, which a walk of the process tree misses).
 */
export function pipeHolders(pipes: readonly string[]): HeldBy[] {
  if (pipes.length === 0) return [];
  const wanted = new Set(pipes);
  const found: HeldBy[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // Gone, or another user's.
    }
    const holds = fds.some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${entry}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    const start = holds ? startOf(Number(entry)) : undefined;
    if (start !== undefined) found.push({ pid: Number(entry), start });
  }
  return found;
}

/**
 * Sends `signal` to each process still running under the same identity (an id given to another
 * process since is left alone); returns how many were signalled.
 */
export function signalHolders(holders: readonly HeldBy[], signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const { pid, start } of holders) {
    if (startOf(pid) !== start) continue;
    try {
      process.kill(pid, signal);
      signalled += 1;
    } catch {
      // Gone meanwhile (ESRCH), or not ours to signal (EPERM).
    }
  }
  return signalled;
}
