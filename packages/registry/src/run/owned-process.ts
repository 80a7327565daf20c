import type { ChildProcess } from "node:child_process";
import { descendantsOf, signalProcesses, type ProcessIdentity } from "./process-tree.js";

/** Options for ending a child process. */
export interface TerminateOptions {
  /** How long SIGTERM gets before SIGKILL, in milliseconds; default 2000. */
  graceMs?: number;
  /** Signal the whole process group (the child was spawned with `detached: true`). */
  group?: boolean;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function signal(child: ChildProcess, name: NodeJS.Signals, group: boolean): void {
  try {
    if (group && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // Already gone (ESRCH): nothing to end.
  }
}

/**
 * Ends a child process: SIGTERM, then SIGKILL after the grace period. Resolves once the process
 * has exited, and at the latest shortly after SIGKILL — it never waits unbounded.
 *
 * With `group`, the whole process group is signalled, and so is every descendant of the child
 * found in /proc at the time (Linux), also one that left the group or the session (`setsid`,
 * Python's `start_new_session`, Node's `detached`): each gets SIGTERM with the group and SIGKILL
 * once the child is gone. A daemon whose parent exited before is not found (the init process
 * adopted it).
 */
export async function terminateProcess(child: ChildProcess, options: TerminateOptions = {}): Promise<void> {
  const graceMs = options.graceMs ?? 2000;
  const group = options.group ?? false;
  if (exited(child) && !group) return;
  const tree = new Map<number, ProcessIdentity>();
  const collect = () => {
    if (!group || child.pid === undefined || exited(child)) return;
    for (const found of descendantsOf(child.pid)) tree.set(found.pid, found);
  };
  collect();
  const gone = new Promise<void>((resolve) => {
    if (exited(child)) resolve();
    else child.once("exit", () => resolve());
  });
  signal(child, "SIGTERM", group);
  signalProcesses([...tree.values()], "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const killAfterGrace = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      // What it started during the grace period too.
      collect();
      signal(child, "SIGKILL", group);
      resolve();
    }, graceMs);
  });
  await Promise.race([gone, killAfterGrace]);
  clearTimeout(timer);
  if (!exited(child)) {
    // SIGKILL cannot be ignored; give the kernel a moment to reap, bounded.
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 500))]);
  }
  if (group) {
    signal(child, "SIGKILL", true);
    signalProcesses([...tree.values()], "SIGKILL");
  }
}
