import type { ChildProcess } from "node:child_process";

/**
 * Whether some process holds the id `id` (a zombie too), or for a negative id, whether the
 * process group `-id` has a member; EPERM means one does, owned by another user.
 */
export function idInUse(id: number): boolean {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Sends `signal` to the process group `child` leads (it was spawned `detached`, so its pid is the
 * group's id), and says whether a signal went out.
 *
 * While the child runs, or has exited and is not reaped yet, the group is its own. Once Node has
 * reaped it, its pid is free: the group lives on while members remain, and the kernel hands the
 * number to no new process meanwhile; with none left, a new process may get the same pid and lead
 * a group of the same number (pids wrap at 32768 on many machines, within minutes of a busy
 * test run). So after the exit, the group is signalled only while no process holds the pid: one
 * that does is a stranger, and so is its group.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  const exited = child.exitCode !== null || child.signalCode !== null;
  if (exited && idInUse(pid)) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: no process is left in the group.
    return false;
  }
}
