import { readdirSync, readFileSync } from "node:fs";

/**
 * A process's state letter (`R`, `S`, `Z` …), its parent, and when it started (clock ticks since
 * boot: with the pid, what tells the process from a later one given the same pid), or undefined
 * when it is gone.
 */
export function processStat(pid: number): { state: string; ppid: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces; the fields after it are fixed
    // (the state is field 3 of the line, the parent 4, the start time 22).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "?", ppid: Number(fields[1]), start: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** When the process started (see {@link processStat}), or undefined when it is gone. */
export function startTime(pid: number): string | undefined {
  return processStat(pid)?.start;
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== undefined && stat.state !== "Z";
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
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(entry));
    children.set(stat.ppid, list);
  }
  const found: number[] = [];
  const queue = [{ pid, generation: 0 }];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next.generation >= depth) continue;
    for (const child of children.get(next.pid) ?? []) {
      found.push(child);
      queue.push({ pid: child, generation: next.generation + 1 });
    }
  }
  return found;
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
