import { processStat, signalProcesses, type ProcessIdentity } from "@tools/registry";

/** True while the process exists and is not a zombie (PID 1 may never reap an orphan here). */
export function running(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== undefined && stat.state !== "Z";
}

/**
 * The process `pid` is now (pid and start time), or undefined when it is not running: taken as
 * soon as a test learns the pid, so that its clean-up ({@link killStill}) ends that process and
 * never another given the pid after it ended.
 */
export function identify(pid: number): ProcessIdentity | undefined {
  const stat = processStat(pid);
  return stat === undefined || stat.state === "Z" ? undefined : { pid, start: stat.start };
}

/** SIGKILLs those of `processes` still running as the same process (pid and start time). */
export function killStill(...processes: (ProcessIdentity | undefined)[]): void {
  signalProcesses(
    processes.filter((found): found is ProcessIdentity => found !== undefined),
    "SIGKILL",
  );
}
