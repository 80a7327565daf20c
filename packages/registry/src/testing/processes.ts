import { readFileSync } from "node:fs";

// Looks at real processes in Linux's /proc, for the run and process-mark tests.

/** The fields of /proc/<pid>/stat after the command name, or undefined when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The session id of `pid` (field 6 of /proc/<pid>/stat), or undefined when it is gone. */
export function sessionOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields === undefined ? undefined : Number(fields[3]);
}

/** Whether `pid` is gone or a zombie (dead, waiting for a reaper this container may not run). */
export function dead(pid: number): boolean {
  const fields = statFields(pid);
  return fields === undefined || fields[0] === "Z";
}

/** Polls `condition` every 20 ms; true once it holds, false after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
