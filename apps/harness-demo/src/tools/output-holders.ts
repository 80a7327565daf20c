import { readdirSync, readlinkSync, statSync } from "node:fs";
import { outputTargets, processStat } from "@tools/registry";

// The processes that still hold a command's output pipe. Each inherited it from the command (the
// pipe is one Node made for that command alone), so each is what the command left running: also
// one that left its process group and session and dropped its environment (`setsid env -i …`),
// which neither the group nor the process mark reaches. Linux (/proc) only: elsewhere nothing is
// found. A process that closed or redirected every inherited file (`… >/dev/null 2>&1 &`) holds
// nothing of the command's and is not found.

/** A process as /proc shows it: what tells a reused id apart, and its process group. */
export interface Holder {
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot at which it started. */
  readonly start: string;
  readonly pgid: number;
}

/** The start time (see {@link Holder.start}) of `pid`, or undefined when it is gone. */
export function startOf(pid: number | undefined): string | undefined {
  return pid === undefined ? undefined : processStat(pid)?.start;
}

/**
 * The pipes (or socket pairs: Node's stdio pipes are those) that fds 1 and 2 of `pid` are open
 * on, as /proc names them (`socket:[inode]`). A terminal is left out: it is not the command's
 * alone. Read while `pid` runs.
 */
export function outputPipes(pid: number | undefined): string[] {
  return outputTargets(pid).filter((target) => !target.startsWith("/dev/"));
}

/**
 * Every process, other than this one, that holds one of `pipes` open: of this process's user,
 * started no earlier than `since` (the command's own start time: a process started before it,
 * such as a server the command handed the pipe to over a socket, is not its leftover), and seen
 * under one identity while its files were read (an id given to another process meanwhile is not
 * taken for either).
 */
export function holdersOf(pipes: readonly string[], since: string | undefined): Holder[] {
  if (pipes.length === 0 || since === undefined) return [];
  const wanted = new Set(pipes);
  const uid = process.getuid?.();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: Holder[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const before = processStat(pid);
    if (before === undefined || before.state === "Z" || BigInt(before.start) < BigInt(since)) continue;
    try {
      if (uid !== undefined && statSync(`/proc/${entry}`).uid !== uid) continue;
    } catch {
      continue;
    }
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // Gone, or not ours to read.
    }
    const holds = fds.some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${entry}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    const after = processStat(pid);
    if (after?.start !== before.start) continue;
    found.push({ pid, start: before.start, pgid: after.pgid });
  }
  return found;
}

let ownGroup: number | undefined;
function ownProcessGroup(): number | undefined {
  ownGroup ??= processStat(process.pid)?.pgid;
  return ownGroup;
}

/**
 * Sends `signal` to each holder still running under its identity, and to the process group it
 * leads (it left the command's group with `setsid` or `setpgid`: what else is in that group was
 * started there after it). A group whose leader has ended is signalled while no process holds its
 * id (its members keep the id from being given to another); never this process's own group.
 * Returns how many holders were signalled.
 */
export function signalHolders(holders: readonly Holder[], signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const holder of holders) {
    const stat = processStat(holder.pid);
    const same = stat?.start === holder.start;
    if (same && stat.state !== "Z") {
      try {
        process.kill(holder.pid, signal);
        signalled += 1;
      } catch {
        // Gone meanwhile (ESRCH), or not ours to signal (EPERM).
      }
    }
    const leads = holder.pgid === holder.pid && holder.pgid > 1 && holder.pgid !== ownProcessGroup();
    if (leads && (same || stat === undefined)) {
      try {
        process.kill(-holder.pgid, signal);
      } catch {
        // No member left (ESRCH).
      }
    }
  }
  return signalled;
}

/** Whether any of `holders` still runs under its identity (a zombie has ended). */
function running(holders: readonly Holder[]): boolean {
  return holders.some((holder) => {
    const stat = processStat(holder.pid);
    return stat?.start === holder.start && stat.state !== "Z";
  });
}

/**
 * Ends every process holding `pipes` (see {@link holdersOf}): SIGTERM to each and its group, so
 * that a server can shut down cleanly, then SIGKILL after `graceMs` to what is left and to what
 * they started meanwhile with the pipe (a few rounds). Resolves within about `graceMs`.
 */
export async function endHolders(
  pipes: readonly string[],
  since: string | undefined,
  graceMs: number,
): Promise<void> {
  const first = holdersOf(pipes, since);
  if (first.length === 0) return;
  signalHolders(first, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (running(first) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
  signalHolders(first, "SIGKILL");
  for (let round = 0; round < 3; round++) {
    if (signalHolders(holdersOf(pipes, since), "SIGKILL") === 0) break;
  }
}
