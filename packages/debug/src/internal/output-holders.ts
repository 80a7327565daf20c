import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * What the standard output and error of process `pid` are open on, as /proc names it
 * (`pipe:[inode]`, `socket:[inode]`, `/dev/pts/N`): the processes it starts inherit them, and
 * keep them open after it exited. Empty when it is gone, or off Linux.
 */
export function outputTargets(pid: number): string[] {
  const targets = new Set<string>();
  for (const fd of [1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(pipe|socket):\[\d+\]$|^\/dev\/pts\/\d+$/.test(target)) targets.add(target);
    } catch {
      // Gone, or not Linux.
    }
  }
  return [...targets];
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

/**
 * Every process other than this one that has one of `targets` open for writing: who can still
 * write to a program's output (the program, and what it started and left behind, also outside
 * its process group or session and after the init process adopted it). A reader (the adapter
 * collecting the output) is not one. Empty off Linux.
 */
export function writersOf(targets: readonly string[]): number[] {
  if (targets.length === 0) return [];
  const wanted = new Set(targets);
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // Gone, or not ours to read.
    }
    const writes = fds.some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${entry}/fd/${fd}`)) && writable(entry, fd);
      } catch {
        return false;
      }
    });
    if (writes) found.push(Number(entry));
  }
  return found;
}
