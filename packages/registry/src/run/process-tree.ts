import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";

// Linux's /proc, read to find the processes a child left behind. Everything here is empty (or
// undefined) where /proc is not there.

/** A process as found in /proc: its id and its start time, which tells a reused id apart. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot at which it started. */
  readonly start: string;
}

/**
 * A process's state letter (`R`, `S`, `Z` …), its parent, its process group, and when it started
 * (see {@link ProcessIdentity.start}), or undefined when it is gone.
 */
export function processStat(
  pid: number,
): { state: string; ppid: number; pgid: number; start: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in brackets and may hold spaces or brackets itself.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const start = fields[19];
  return Number.isInteger(ppid) && Number.isInteger(pgid) && start !== undefined
    ? { state: fields[0] ?? "?", ppid, pgid, start }
    : undefined;
}

/**
 * The environment variable that marks a process reaper (see `createProcessMark`): it ends with
 * its host, never before, so {@link descendantsOf} passes it by.
 */
export const reaperVariable = "TOOLS_PROCESS_REAPER";

/**
 * The environment `pid` was started with (`text`: /proc/<pid>/environ, NUL-terminated
 * `NAME=value` entries), "gone" when the process is, or "denied" when it is not ours to read.
 * Empty for a zombie, a kernel thread, and a process in the middle of an exec.
 */
export function environmentOf(pid: number | string): { readonly text: string } | "gone" | "denied" {
  try {
    return { text: readFileSync(`/proc/${pid}/environ`, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ESRCH" ? "gone" : "denied";
  }
}

/**
 * The value of `name` in the environment `pid` was started with (/proc/<pid>/environ), or
 * undefined when it is not set there or the process is gone or not ours to read.
 */
export function environmentVariable(pid: number | string, name: string): string | undefined {
  const raw = environmentOf(pid);
  return raw === "gone" || raw === "denied" ? undefined : variableIn(raw.text, name);
}

/** The value of `name` in the environment `raw` (as /proc/<pid>/environ holds it), or undefined. */
export function variableIn(raw: string, name: string): string | undefined {
  // Entries are NUL-terminated `NAME=value` strings.
  const key = `${name}=`;
  let start: number;
  if (raw.startsWith(key)) start = 0;
  else {
    const found = raw.indexOf(`\0${key}`);
    if (found < 0) return undefined;
    start = found + 1;
  }
  const end = raw.indexOf("\0", start);
  return raw.slice(start + key.length, end < 0 ? raw.length : end);
}

/**
 * The live descendants of `pid` (children first, then theirs, down to `depth` generations),
 * found through the parent ids in /proc: also those that left its process group or session
 * (`setsid`, `start_new_session`, `detached: true`), which a signal to the group misses. A
 * process whose parent exited before this call (a daemon's double fork) is the init process's
 * child by then and is not found: {@link writersOf} finds such a one by the output it holds. A
 * process reaper (see {@link reaperVariable}) is passed by with what it runs: it must outlive
 * the host it watches, to end what that host started.
 */
export function descendantsOf(pid: number, depth = Infinity): ProcessIdentity[] {
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
    const stat = processStat(child);
    if (stat === undefined) continue;
    const siblings = children.get(stat.ppid);
    const identity = { pid: child, start: stat.start };
    if (siblings) siblings.push(identity);
    else children.set(stat.ppid, [identity]);
  }
  const found: ProcessIdentity[] = [];
  const queue = [{ pid, generation: 0 }];
  const seen = new Set([pid]);
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next.generation >= depth) continue;
    for (const child of children.get(next.pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      if (environmentVariable(child.pid, reaperVariable) !== undefined) continue;
      found.push(child);
      queue.push({ pid: child.pid, generation: next.generation + 1 });
    }
  }
  return found;
}

/**
 * Sends `signal` to each process still running under the same identity (an id given to another
 * process since is left alone); returns how many were signalled.
 */
export function signalProcesses(processes: readonly ProcessIdentity[], signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const { pid, start } of processes) {
    if (processStat(pid)?.start !== start) continue;
    try {
      process.kill(pid, signal);
      signalled += 1;
    } catch {
      // Gone meanwhile (ESRCH), or not ours to signal (EPERM).
    }
  }
  return signalled;
}

/**
 * What the standard output and error of process `pid` are open on, as /proc names it
 * (`pipe:[inode]`, `socket:[inode]` — Node's stdio pipes are socket pairs —), or a terminal
 * (`/dev/pts/N@<made>`): the processes it starts inherit them and keep them open after it
 * exited. Read while it runs. A terminal's name goes to the next terminal opened once it is
 * closed (another program's, a tmux pane's), so its identity adds when it was made (see
 * {@link terminalIdentity}); a pipe's or socket's inode is never given out again.
 */
export function outputTargets(pid: number | undefined): string[] {
  if (pid === undefined) return [];
  const targets = new Set<string>();
  for (const fd of [1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(pipe|socket):\[\d+\]$/.test(target)) targets.add(target);
      else if (terminalName.test(target)) {
        const identity = terminalIdentity(target, `/proc/${pid}/fd/${fd}`);
        if (identity !== undefined) targets.add(identity);
      }
    } catch {
      // Gone already.
    }
  }
  return [...targets];
}

/** A pseudo-terminal's name as /proc shows an open one. */
const terminalName = /^\/dev\/pts\/\d+$/;

/**
 * `name@<made>` for the terminal `name` open at `openPath` (a /proc/<pid>/fd entry): `made` is
 * its devpts node's change time, set when the terminal is opened and not by reads or writes. It
 * moves by the kernel's clock tick (4 ms at HZ=250): a terminal closed and the next opened within
 * one tick look alike (a program's terminal outlives its launch under a debugger by far).
 * Undefined when the entry is gone.
 */
function terminalIdentity(name: string, openPath: string): string | undefined {
  try {
    return `${name}@${statSync(openPath, { bigint: true }).ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** True when the open file `fd` of `pid` can be written (O_WRONLY or O_RDWR in its fdinfo flags). */
function writable(pid: string, fd: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 3) !== 0;
  } catch {
    return false;
  }
}

/** The ids (as /proc names them) of every process but this one; empty where /proc is not there. */
export function otherProcessIds(): string[] {
  try {
    return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
}

/**
 * Every process other than this one that has one of `targets` (see {@link outputTargets}) open
 * for writing: who can still write to a child's output after it exited — what it started and
 * left running, also outside its process group or session and after the init process adopted
 * it. A reader of the output is not one, nor a writer of another terminal given a listed one's
 * name since.
 */
export function writersOf(targets: readonly string[]): ProcessIdentity[] {
  if (targets.length === 0) return [];
  const wanted = new Set(targets);
  // Terminals by name: only an open one of those names is looked at again for when it was made.
  const terminals = new Set(
    targets.filter((target) => target.startsWith("/dev/pts/")).map((target) => target.split("@")[0]),
  );
  const found: ProcessIdentity[] = [];
  for (const entry of otherProcessIds()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // Gone, or not ours to read.
    }
    const writes = fds.some((fd) => {
      try {
        const link = readlinkSync(`/proc/${entry}/fd/${fd}`);
        const target = terminals.has(link) ? terminalIdentity(link, `/proc/${entry}/fd/${fd}`) : link;
        return target !== undefined && wanted.has(target) && writable(entry, fd);
      } catch {
        return false;
      }
    });
    const start = writes ? processStat(Number(entry))?.start : undefined;
    if (start !== undefined) found.push({ pid: Number(entry), start });
  }
  return found;
}
