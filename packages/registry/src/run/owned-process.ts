import type { ChildProcess } from "node:child_process";
import { lookForMark, markedProcesses, markOf, maxSettleLooks, settlePauseMs } from "./process-mark.js";
import { signalGroup } from "./process-group.js";
import { descendantsOf, processStat, signalProcesses, type ProcessIdentity } from "./process-tree.js";

/** Options for ending a child process. */
export interface TerminateOptions {
  /** How long SIGTERM gets before SIGKILL, in milliseconds; default 2000. */
  graceMs?: number;
  /** Signal the whole process group (the child was spawned with `detached: true`). */
  group?: boolean;
  /**
   * The value of the {@link createProcessMark} mark the child was spawned with: every process
   * carrying it is ended too, also after the child itself has exited. Read from the child's
   * environment when not given and the child still runs.
   */
  mark?: string;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves once none of `processes` runs (a zombie is dead), or at `deadline`. */
async function untilGone(processes: readonly ProcessIdentity[], deadline: number): Promise<void> {
  const running = () =>
    processes.some(({ pid, start }) => {
      const stat = processStat(pid);
      return stat?.start === start && stat.state !== "Z";
    });
  while (running() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals, group: boolean): void {
  if (group) {
    signalGroup(child, name);
    return;
  }
  try {
    child.kill(name);
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
 * once the child is gone. A daemon whose parent exited before (the init process adopted it) is
 * found by the child's mark, when it was spawned with one ({@link createProcessMark}); with a
 * mark, what carries it is ended even when the child has exited already. The mark is looked for
 * twice at least, and again (10 ms apart, 5 looks at most) while a look finds something new or
 * meets a process that is gone or in the middle of an exec: a carrier that forked after one look
 * listed the processes, and exited before its environment was read, left a process only the
 * next look lists. Every look comes before the first SIGTERM.
 */
export async function terminateProcess(child: ChildProcess, options: TerminateOptions = {}): Promise<void> {
  const graceMs = options.graceMs ?? 2000;
  const deadline = Date.now() + graceMs;
  const group = options.group ?? false;
  if (exited(child) && !group && options.mark === undefined) return;
  // Read from the child only while it runs: once it has exited, its pid may be another's.
  const mark = options.mark ?? (exited(child) ? undefined : markOf(child.pid));
  const tree = new Map<number, ProcessIdentity>();
  // Whether anything can still start a process carrying the mark: the child while it runs, or a
  // carrier found. With none, the rounds of SIGKILL at the end have nothing to look for.
  let carriers = !exited(child);
  /**
   * One look: adds what it finds to the tree; says whether it found something new or met a
   * process it could not judge.
   */
  const collect = (): boolean => {
    let again = false;
    const add = (found: ProcessIdentity) => {
      if (tree.get(found.pid)?.start === found.start) return;
      tree.set(found.pid, found);
      again = true;
    };
    if (mark !== undefined) {
      const look = lookForMark(mark, zombies);
      if (look.found.length > 0) carriers = true;
      if (look.unsettled) again = true;
      // Stopped where it is while the looks go on: a carrier that cannot run cannot fork one
      // they miss.
      const fresh = look.found.filter((found) => tree.get(found.pid)?.start !== found.start);
      if (looking) {
        signalProcesses(fresh, "SIGSTOP");
        stopped.push(...fresh);
      }
      for (const found of fresh) add(found);
    }
    if (group && child.pid !== undefined && !exited(child)) {
      for (const found of descendantsOf(child.pid)) add(found);
    }
    return again;
  };
  // Looks by the mark: a look lists /proc, then reads each environment; a carrier that forked
  // after the listing and was gone (or in the middle of an exec) when its environment was read
  // (`setsid sh -c "sh -c 'daemon &'"` as bash ends) leaves a daemon no look had listed. A second
  // look always, and more, a pause apart, while a look finds something new or meets such a
  // process. Each carrier found is stopped (SIGSTOP) until the looks are done, so that none forks
  // behind them, and woken (SIGCONT) after its SIGTERM. All looks come before any SIGTERM: a
  // daemon whose SIGTERM handler starts a child to clean up is not signalled in the middle of it.
  const stopped: ProcessIdentity[] = [];
  const zombies = new Set<string>();
  let looking = true;
  try {
    let again = collect();
    for (let look = 0; mark !== undefined && look < maxSettleLooks && (look === 0 || again); look++) {
      await new Promise((resolve) => setTimeout(resolve, settlePauseMs));
      again = collect();
    }
    signal(child, "SIGTERM", group);
    signalProcesses([...tree.values()], "SIGTERM");
  } finally {
    // Woken with SIGTERM pending: it is what each does first.
    looking = false;
    signalProcesses(stopped, "SIGCONT");
  }
  const gone = new Promise<void>((resolve) => {
    if (exited(child)) resolve();
    else child.once("exit", () => resolve());
  });
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
  if (group) signal(child, "SIGKILL", true);
  if (group || mark !== undefined) {
    // What is left of the tree gets the rest of the grace period to end on its SIGTERM.
    await untilGone([...tree.values()], deadline);
    signalProcesses([...tree.values()], "SIGKILL");
    // And what the marked ones started meanwhile, a few rounds: one that ignores SIGTERM may
    // have forked right up to its SIGKILL.
    for (let round = 0; mark !== undefined && carriers && round < 3; round++) {
      if (signalProcesses(markedProcesses(mark), "SIGKILL") === 0) break;
    }
  }
}
