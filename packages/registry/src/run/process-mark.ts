import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { journalFolder, journalSuffix } from "../files/write-journal.js";
import { threadPrefix } from "./host-identity.js";
import {
  environmentOf,
  environmentVariable,
  otherProcessIds,
  processStat,
  reaperVariable,
  variableIn,
  type ProcessIdentity,
} from "./process-tree.js";

// Processes found by an environment variable they inherited. A process a tool starts gets a
// mark in its environment; whatever it starts inherits it, also a daemon that double-forked and
// was adopted by the init process, which no parent id or process group leads back to. Only a
// process that replaces its whole environment (`env -i`) loses it. Linux (/proc) only: elsewhere
// nothing is found and no reaper runs.

/** The environment variable that carries a mark. */
export const processMarkVariable = "TOOLS_PROCESS_MARK";

/** A mark for one spawned process and everything it starts. */
export interface ProcessMark {
  /** The mark's value: this process's id and start, the thread's id, a counter and a random part. */
  readonly value: string;
  /** The environment entry to add to the spawned process's environment. */
  readonly env: Readonly<Record<string, string>>;
}

let counter = 0;
let reaper: ChildProcess | undefined;
/** Reapers started again after one was ended, and at most how many times. */
let reaperRestarts = 0;
const maxReaperRestarts = 10;

/**
 * `<pid>-<start>-<thread>-`: what every mark issued by this thread of this process starts with
 * (another process's or thread's never does). Each thread has its own reaper, which ends with
 * the thread (its pipe closes when the thread's event loop ends): it sweeps only its own marks.
 */
const prefix = threadPrefix;

/**
 * A new mark to put in a child's environment (`env: { ...process.env, ...mark.env }`). Pass its
 * value as `mark` to `terminateProcess` or `Run.ownProcess` to end, with the child, every process
 * that inherited it. The first mark of a thread also starts its reaper: a small detached shell
 * that waits for this process (or the thread) to end, however it ends (also SIGKILL), and then
 * ends every process still carrying one of the thread's marks.
 */
export function createProcessMark(): ProcessMark {
  counter += 1;
  const value = `${prefix()}${counter}-${randomBytes(4).toString("hex")}`;
  startReaper();
  return { value, env: { [processMarkVariable]: value } };
}

/** Whether `value` is a mark this thread issued (an inherited one from an outer host is not). */
function isOwnMark(value: string | undefined): value is string {
  return value !== undefined && value.startsWith(prefix());
}

/** The mark in the environment `pid` was started with, when this thread issued it. */
export function markOf(pid: number | undefined): string | undefined {
  if (pid === undefined) return undefined;
  const value = environmentVariable(pid, processMarkVariable);
  return isOwnMark(value) ? value : undefined;
}

/**
 * The running processes, other than this one, whose environment carries mark `value`, in one
 * immediate look: a carrier it meets in the middle of an exec is missed; {@link
 * settledMarkedProcesses} looks again until it can tell.
 */
export function markedProcesses(value: string): ProcessIdentity[] {
  return lookForMark(value).found;
}

/**
 * Most looks after the first while a look is unsettled ({@link MarkLook}), and the milliseconds
 * between two: long enough for an exec or a fork to finish. Shared by `terminateProcess`.
 */
export const maxSettleLooks = 4;
export const settlePauseMs = 10;

/**
 * The running processes, other than this one, carrying mark `value`, looked for until a look
 * settles: a look that met a process it could not judge (gone since the listing, in the middle of
 * an exec, a zombie met first) is followed by another a short pause later, 5 looks and about
 * 50 ms at most. A carrier met in the middle of an exec by one look is found by the next, which an
 * immediate look ({@link markedProcesses}) misses. What any look found is returned, each process
 * once; one that ended meanwhile may be among them (its start time tells).
 */
export function settledMarkedProcesses(value: string): Promise<ProcessIdentity[]> {
  return lookUntilSettled(value, maxSettleLooks, settlePauseMs);
}

/** {@link settledMarkedProcesses} with its bounds given: `looks` after the first, `pauseMs` apart. */
export async function lookUntilSettled(
  value: string,
  looks: number,
  pauseMs: number,
): Promise<ProcessIdentity[]> {
  const found = new Map<string, ProcessIdentity>();
  const zombies = new Set<string>();
  for (let look = 0; ; look++) {
    const result = lookForMark(value, zombies);
    for (const carrier of result.found) found.set(`${carrier.pid}:${carrier.start}`, carrier);
    if (!result.unsettled || look >= looks) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return [...found.values()];
}

/** What one look through /proc for a mark found. */
export interface MarkLook {
  /** The running processes carrying the mark. */
  readonly found: ProcessIdentity[];
  /**
   * True when the look met a process it could not judge: listed but gone before its environment
   * was read, with an empty environment (in the middle of an exec), or a zombie not met by an
   * earlier look. Each may have started a carrier after the listing, which only another look
   * finds.
   */
  readonly unsettled: boolean;
}

/**
 * One look through /proc for the processes carrying mark `value`. Each environment is read once;
 * one that holds the mark is read again between two readings of the process's start time, which
 * must agree: a process that ended and whose id was given to another meanwhile is not taken for
 * either. The start time is read for nothing else but an empty or unreadable environment. A
 * kernel thread is passed by, and so is a zombie (`<pid>:<start>`) in `zombies`, those met by earlier looks: one met first
 * makes the look unsettled (it may have forked right before it died) and is added.
 */
export function lookForMark(value: string, zombies: Set<string> = new Set()): MarkLook {
  const found: ProcessIdentity[] = [];
  let unsettled = false;
  for (const entry of otherProcessIds()) {
    const pid = Number(entry);
    // The environment first: most processes hold another one (or no mark), and are passed by on
    // that one reading. Only an empty environment, or one with the mark, needs the start time.
    const first = environmentOf(pid);
    if (first === "denied") continue;
    if (first !== "gone" && first.text !== "") {
      if (variableIn(first.text, processMarkVariable) !== value) continue;
      const carrier = carrierIdentity(pid, value);
      if (carrier === "unsettled") unsettled = true;
      else found.push(carrier);
      continue;
    }
    // Empty or unreadable (some kernels refuse with ESRCH the environment of a kernel thread or a
    // zombie): a kernel thread (kthreadd, 2, and its children), a zombie, or an exec under way.
    // Only a process whose start time cannot be read either is gone since the listing.
    const stat = processStat(pid);
    if (stat === undefined) unsettled = true;
    else if (pid === 2 || stat.ppid === 2) continue;
    else if (stat.state !== "Z") unsettled = true;
    else {
      // A zombie is dead; one met first may have forked right before it died.
      const key = `${pid}:${stat.start}`;
      if (!zombies.has(key)) {
        zombies.add(key);
        unsettled = true;
      }
    }
  }
  return { found, unsettled };
}

/**
 * The identity of `pid`, which was seen carrying mark `value`: its environment read again between
 * two readings of its start time, which must agree, so a process that ended and whose id went to
 * another is taken for neither; "unsettled" when it cannot be judged (gone, dead, in the middle
 * of an exec, or no longer carrying the mark: maybe another process now has its id).
 */
function carrierIdentity(pid: number, value: string): ProcessIdentity | "unsettled" {
  const before = processStat(pid);
  // Gone, or died right after it was seen (it may have forked first): another look must follow.
  if (before === undefined || before.state === "Z") return "unsettled";
  const environment = environmentOf(pid);
  const after = processStat(pid);
  // Anything but the mark again and the same start time: the carrier may have ended (its id maybe
  // given to another process between the two readings) after it forked; another look must follow.
  if (
    environment === "denied" ||
    environment === "gone" ||
    after?.start !== before.start ||
    variableIn(environment.text, processMarkVariable) !== value
  ) {
    return "unsettled";
  }
  return { pid, start: before.start };
}

// The reaper: `read` returns when the pipe from this thread ends, which happens when the thread or
// the process exits in any way. It then ends every process carrying one of the thread's marks:
// SIGTERM, up to 2 s for them to go, SIGKILL for the rest, a few rounds for what they started
// meanwhile. It holds nothing else of ours open and is in a session of its own, so no signal to
// one of our process groups reaches it.
const reaperScript = `
read -r _ || true
if printf 'a\\0' | grep -qzx a 2>/dev/null; then
  sweep() {
    grep -lzx "${processMarkVariable}=$1.*" /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\\([0-9]*\\)/environ$|\\1|p' | grep -vx "$$" | tr '\\n' ' '
  }
else
  # No GNU grep -z (busybox, BSD): grep -l finds the environments holding the text, each then
  # checked for it at the start of a variable, its NULs made newlines.
  sweep() {
    for file in $(grep -l "${processMarkVariable}=$1" /proc/[0-9]*/environ 2>/dev/null); do
      pid=\${file#/proc/}; pid=\${pid%/environ}
      [ "$pid" = "$$" ] && continue
      tr '\\0' '\\n' 2>/dev/null < "$file" | grep -q "^${processMarkVariable}=$1" && printf '%s ' "$pid"
    done
  }
fi
for round in 1 2 3; do
  pids=$(sweep "$1")
  [ -z "$pids" ] && break
  kill -TERM $pids 2>/dev/null
  waited=0
  while [ $waited -lt 20 ] && [ -n "$(sweep "$1")" ]; do sleep 0.1; waited=$((waited + 1)); done
  pids=$(sweep "$1")
  [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
done
# A change set the host was writing when it ended is rolled back by Node's recovery program, run
# only when such a journal is there (and Node is): without Node the next write's sweep does it.
for journal in "$2/$1"*${journalSuffix}; do
  if [ -f "$journal" ] && [ -x "$3" ] && [ -f "$4" ]; then
    unset NODE_OPTIONS
    exec "$3" "$4" "$2" "$1"
  fi
  break
done
exit 0
`;

/**
 * The program the reaper runs to roll back change sets its host left half written; "" where it
 * cannot be named (a bundle without `import.meta.url`): the reaper then only sweeps processes,
 * and the next `writeFiles` rolls the set back.
 */
function recoveryProgram(): string {
  try {
    return fileURLToPath(new URL("../files/recover-writes-main.js", import.meta.url));
  } catch {
    return "";
  }
}

/**
 * Starts this thread's reaper if it is not running yet (the first mark does too): `writeFiles`
 * starts it before its first journal, so that a change set the host leaves half written when it
 * dies is rolled back at once. Does nothing where /proc or /bin/sh is missing.
 */
export function startReaper(): void {
  if (reaper !== undefined || !existsSync("/proc/self/environ") || !existsSync("/bin/sh")) return;
  // Without a mark (an outer host's sweep must not end it before it swept ours), and marked as a
  // reaper, which `descendantsOf` passes by: a host ended by an outer one leaves its reaper
  // running to end what the host started.
  const env: NodeJS.ProcessEnv = { ...process.env, [reaperVariable]: "1" };
  delete env[processMarkVariable];
  try {
    const args = [prefix(), journalFolder(), process.execPath, recoveryProgram()];
    reaper = spawn("/bin/sh", ["-c", reaperScript, "tools-reaper", ...args], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env,
    });
  } catch {
    return; // No reaper: the run's own termination still ends marked processes.
  }
  const started = reaper;
  started.on("error", () => undefined);
  // Ended by someone (it ignores nothing): another takes over at once, for the marks already
  // given out; a few times at most (a reaper that cannot run at all is not restarted for ever).
  started.once("exit", () => {
    if (reaper !== started) return;
    reaper = undefined;
    if (reaperRestarts < maxReaperRestarts) {
      reaperRestarts += 1;
      startReaper();
    }
  });
  started.stdin?.on("error", () => undefined);
  // Neither the reaper nor the pipe keeps this process's event loop alive.
  started.unref();
  (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

/** The reaper's process id, for tests; undefined before the first mark or where none runs. */
export function reaperPid(): number | undefined {
  return reaper?.pid;
}
