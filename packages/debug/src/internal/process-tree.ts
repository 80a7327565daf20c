import { readFileSync } from "node:fs";
import { descendantsOf, processStat } from "@tools/registry";

// The /proc readings themselves are @tools/registry's (processStat, descendantsOf); these are the
// shapes this package uses them in.
export { processStat };

/** When the process started (see {@link processStat}), or undefined when it is gone. */
export function startTime(pid: number): string | undefined {
  return processStat(pid)?.start;
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== undefined && stat.state !== "Z";
}

/**
 * The command line `pid` runs (/proc/<pid>/cmdline, its arguments), or undefined when it is
 * gone or not ours to read; empty for a zombie or a kernel thread.
 */
export function commandLine(pid: number): string[] | undefined {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
  // NUL-terminated arguments.
  return raw.length === 0 ? [] : raw.replace(/\0$/, "").split("\0");
}

/** The children of `pid` (not theirs), read from /proc; empty off Linux. */
export function childrenOf(pid: number): number[] {
  return descendants(pid, 1);
}

/**
 * Every descendant of `pid` (children first, then theirs; down to `depth` generations), read
 * from /proc; empty off Linux.
 */
export function descendants(pid: number, depth = Infinity): number[] {
  return descendantsOf(pid, depth).map((found) => found.pid);
}

/** Sends a signal, ignoring a process that is already gone. */
export function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Resolves once none of `pids` is alive, or after `timeoutMs` (checked every 20 ms). With
 * `reaped`, a zombie still counts: it waits until the parent has reaped it (the pid is gone).
 */
export async function waitGone(pids: readonly number[], timeoutMs: number, reaped = false): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const gone = reaped ? (pid: number) => processStat(pid) === undefined : (pid: number) => !isAlive(pid);
  for (;;) {
    if (pids.every(gone)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * How a process that has ended but is not reaped yet (a zombie) ended, from /proc/<pid>/stat
 * (its `exit_code`, the wait status): the signal that killed it, or its exit code. Undefined
 * while it runs, once it is reaped, or when the kernel does not show it.
 */
export function zombieExit(pid: number): { signal: number } | { code: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name (field 2, in brackets): state is field 3, exit_code field 52.
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .trim()
    .split(" ");
  if (fields[0] !== "Z") return undefined;
  const status = Number(fields[49]);
  if (!Number.isInteger(status)) return undefined;
  const signal = status & 0x7f;
  return signal === 0 ? { code: (status >> 8) & 0xff } : { signal };
}

/**
 * The first child `parent` starts (the earliest started of its children when first seen), kept
 * from then on: the returned function names it while that same process (same pid and start time)
 * runs, and undefined once it has ended, never another child. Under a child subreaper (the reaper
 * shim) the adapter's orphans, or its program once the adapter died, become the parent's children
 * too, and /proc order can list one of them first.
 */
export function firstChildOf(parent: number): () => number | undefined {
  let first: { pid: number; start: string } | undefined;
  return () => {
    if (first === undefined) {
      const earliest = descendantsOf(parent, 1).sort((a, b) => Number(a.start) - Number(b.start))[0];
      if (earliest === undefined) return undefined;
      first = earliest;
    }
    const stat = processStat(first.pid);
    return stat?.start === first.start && stat.state !== "Z" ? first.pid : undefined;
  };
}
