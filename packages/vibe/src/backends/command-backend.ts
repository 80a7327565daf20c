import { spawn, type ChildProcess } from "node:child_process";
import {
  countNoun,
  createProcessMark,
  headOf,
  settledMarkedProcesses,
  outputTargets,
  signalProcesses,
  terminateProcess,
  writersOf,
} from "@tools/registry";
import { VibeError } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import { maxTimerMs, settleWithin } from "../internal/settle-within.js";
import { PlainOutputTail } from "../internal/plain-output.js";
import { boundWholeText } from "../internal/whole-characters.js";
import type { TierModels, WorkerBackend, WorkerTask } from "./worker-backend.js";

/** Options of {@link createCommandBackend}. */
export interface CommandBackendOptions {
  /**
   * The agent CLI's argv, one attempt per process. Placeholders in any argument: `{tier}`,
   * `{model}` (from `models`), `{label}`, `{workerId}`, `{cwd}`. The brief goes to stdin.
   * Example: `["claude", "-p", "--model", "{model}"]`.
   */
  command: readonly string[];
  /** The model of each tier, for `{model}`. */
  models?: TierModels;
  /** Added to the environment (which also gets VIBE_WORKER_ID, VIBE_WORKER_TIER, VIBE_WORKER_LABEL). */
  env?: Readonly<Record<string, string>>;
  /** How long SIGTERM gets before SIGKILL when the worker is stopped, in milliseconds; default 2000. */
  graceMs?: number;
  /** Most characters of output kept as the result (the end of stdout); default 20 000. */
  maxResultChars?: number;
}

/**
 * A backend that runs an external agent CLI per attempt, in the run's working directory: the
 * brief on stdin, the end of its stdout as the result, a non-zero exit as a failure. The process
 * runs in its own process group, which is ended (SIGTERM, then SIGKILL) when the worker is killed,
 * re-briefed, or the run ends. The attempt is over once the CLI exits: its output is read for
 * another 500 ms at most, and its process group ends, as do the processes that still hold its
 * output open then (also those that left the group). The CLI's own edits do not pass the
 * registry's approval gate: configure its permissions itself.
 */
export function createCommandBackend(options: CommandBackendOptions): WorkerBackend {
  const [program] = options.command;
  if (program === undefined || program === "") {
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: 'the command backend needs a command: an argv array such as ["claude", "-p"]',
    });
  }
  const misspelt = misspeltPlaceholder(options.command);
  if (misspelt) {
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: `the command has {${misspelt.name}}, which is no placeholder (it would reach the CLI as written): did you mean {${misspelt.meant}}? The placeholders are ${placeholders.map((name) => `{${name}}`).join(", ")}`,
    });
  }
  if (options.command.some((part) => part.includes("{model}"))) {
    const missing = (["fast", "good"] as const).filter((tier) => !options.models?.[tier]?.trim());
    if (missing.length > 0) {
      throw new VibeError({
        code: "INVALID_BACKEND_CONFIG",
        message: `the command uses {model}, but no model is given for ${missing.join(" and ")}: pass models { fast, good } (a command with {model} is never run with an empty model)`,
      });
    }
  }
  const maxResultChars = options.maxResultChars ?? 20_000;
  const graceMs = options.graceMs ?? 2000;
  // A timer waits at most 2^31 - 1 ms; past it (or NaN) it fires at once: SIGKILL and a stop's
  // wait of 1 ms, a dispose ending with the CLI still running.
  if (!(graceMs >= 0 && graceMs <= maxTimerMs)) {
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: `graceMs must be a number of milliseconds from 0 to ${maxTimerMs}, got ${String(graceMs)}: how long SIGTERM gets before SIGKILL (default 2000)`,
    });
  }
  return {
    // The CLI edits files and runs commands itself: nothing it does passes the registry's gate.
    gated: false,
    description: `command ${options.command.join(" ")}`,
    // After the grace, SIGKILL; then the rest of the output, its holders and the marked leftovers.
    stopMs: graceMs + outputGraceMs + 2 * holderKillMs + stopMarginMs,
    perform(task: WorkerTask): Promise<string> {
      const values: Record<string, string> = {
        tier: task.tier,
        // Checked above: a command that names {model} has a model for every tier.
        model: options.models?.[task.tier] ?? "",
        label: task.label,
        workerId: task.workerId,
        cwd: task.workingDirectory,
      };
      const argv = options.command.map((part) =>
        part.replace(/\{(tier|model|label|workerId|cwd)\}/g, (_, name: string) => values[name] ?? ""),
      );
      return runCommand(argv, task, options, maxResultChars, graceMs);
    },
  };
}

/** The names the command's `{name}` placeholders may take. */
const placeholders = ["tier", "model", "label", "workerId", "cwd"] as const;

/**
 * The first `{name}` in the command that is no placeholder but a slip of one's spelling: its
 * case (`{workerid}`, `{Model}`), two letters swapped (`{modle}`, `{teir}`), or one letter
 * wrong, missing or extra in a name of five letters or more that is not a word of its own next
 * to it (`{labl}` is, `{mode}`, `{models}` and `{level}` are not). It would reach the CLI as
 * written. Braces around anything else are the CLI's own (a JSON argument, a template of its
 * own: `{time} {level} {id}`) and left alone.
 */
function misspeltPlaceholder(command: readonly string[]): { name: string; meant: string } | undefined {
  for (const part of command) {
    for (const [, name] of part.matchAll(/\{(\w+)\}/g)) {
      if ((placeholders as readonly string[]).includes(name!)) continue;
      const meant = placeholders.find((placeholder) => slipOf(name!, placeholder));
      if (meant) return { name: name!, meant };
    }
  }
  return undefined;
}

/** Whether `name` is `placeholder` with a slip (see {@link misspeltPlaceholder}). */
function slipOf(name: string, placeholder: string): boolean {
  const a = name.toLowerCase();
  const b = placeholder.toLowerCase();
  if (a === b) return true;
  if (a.length === b.length) {
    const differ: number[] = [];
    for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) differ.push(index);
    // Two neighbours swapped.
    if (
      differ.length === 2 &&
      differ[1] === differ[0]! + 1 &&
      a[differ[0]!] === b[differ[1]!] &&
      a[differ[1]!] === b[differ[0]!]
    )
      return true;
    return b.length >= 5 && differ.length === 1;
  }
  // One letter missing or extra, not at the end (`{mode}`, `{models}` are words of their own).
  if (b.length < 5 || Math.abs(a.length - b.length) !== 1 || a.startsWith(b) || b.startsWith(a)) return false;
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  for (let index = 0; index < longer.length; index++)
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return true;
  return false;
}

/**
 * How long the rest of the output gets after the CLI exited, in milliseconds: a background
 * process it left (also one outside its process group) may hold its output open for good.
 */
const outputGraceMs = 500;

/**
 * How long the holders of the output get to close it, in milliseconds: half after SIGTERM (to
 * clean up and exit), the rest after SIGKILL for those still there.
 */
const holderKillMs = 1000;

/** Room for the process table look-ups and the event loop in a stop's bound, in milliseconds. */
const stopMarginMs = 1000;

function runCommand(
  argv: string[],
  task: WorkerTask,
  options: CommandBackendOptions,
  maxResultChars: number,
  graceMs: number,
): Promise<string> {
  if (task.signal.aborted) return Promise.reject(abortReason(task.signal));
  const [program, ...args] = argv as [string, ...string[]];
  return new Promise<string>((resolve, reject) => {
    // What the CLI starts carries the mark, also a daemon that leaves its group and session and
    // holds none of its output: it ends with the CLI, or with the host's reaper should the host die.
    const mark = createProcessMark();
    const child = spawn(program, args, {
      cwd: task.workingDirectory,
      env: {
        ...process.env,
        ...options.env,
        VIBE_WORKER_ID: task.workerId,
        VIBE_WORKER_TIER: task.tier,
        VIBE_WORKER_LABEL: task.label,
        ...mark.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    // Named now, while the CLI runs: after it exited, what still holds these is what it left.
    const pipes = outputTargets(child.pid);
    const closed = new Promise<void>((resolveClosed) => child.once("close", () => resolveClosed()));
    // Kept as the plain text the model reads (see plainOutput), as it arrives: an escape split
    // between chunks never shows as a fragment, and what is counted as left out is plain text.
    const stdout = new PlainOutputTail(maxResultChars);
    const stderr = new PlainOutputTail(4000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const line = stdout.push(chunk);
      if (line) task.progress(line.length > 200 ? `${headOf(line, 199)}…` : line);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
    // What it did so far: the end of its output, for vibe_wait while it runs and a kill's result.
    task.soFar?.((stopped) => {
      const output = outputEnd(stdout);
      return output ? `Its output ${stopped ? "until then" : "so far"}:\n${output}` : "";
    });
    // The CLI may exit without reading its stdin; that is not a failure of ours.
    child.stdin.on("error", () => undefined);
    child.stdin.end(task.brief);

    let stopping: Promise<void> | undefined;
    const onAbort = (): void => {
      stopping = terminateProcess(child, { group: true, mark: mark.value, graceMs });
    };
    task.signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => {
      // Once started, the attempt ends with the CLI's exit; only a failure to start ends it here.
      if (child.pid !== undefined) return;
      task.signal.removeEventListener("abort", onAbort);
      if (task.signal.aborted) return reject(abortReason(task.signal));
      reject(startFailure(program, error as NodeJS.ErrnoException));
    });
    // The attempt ends when the CLI exits, not when its output closes: a background process it
    // left may hold that open for good.
    child.once("exit", (code, signal) => {
      task.signal.removeEventListener("abort", onAbort);
      void (async () => {
        // Whatever the CLI left running in its process group ends with it.
        await (stopping ?? terminateProcess(child, { group: true, graceMs: 0 }));
        const note = await endLeftovers(child, closed, pipes, mark.value);
        if (task.signal.aborted) return reject(abortReason(task.signal));
        if (code === 0) return resolve(`${outputEnd(stdout)}${note ? `\n\n${note}` : ""}`);
        const why = signal ? `was ended by ${signal}` : `exited with code ${String(code)}`;
        // Cut between whole characters: stdout kept to a longer maxResultChars may be quoted.
        const tail = (text: string, maxChars: number) =>
          boundWholeText(text.trim(), { maxLines: 20, maxChars, keep: "tail" });
        const errText = tail(stderr.text(), 20_000);
        // Beside stderr, stdout's end is what it did: a shorter part.
        const outText = tail(stdout.text(), errText ? 4000 : 20_000);
        // Why it failed (stderr), and what it did before (the end of stdout): its edits stay.
        const output =
          errText && outText
            ? `; its last output (stderr):\n${errText}\nIts stdout ended with:\n${outText}`
            : errText || outText
              ? `; its last output:\n${errText || outText}`
              : "";
        reject(
          new VibeError({
            code: "COMMAND_FAILED",
            message: `'${argv.join(" ")}' ${why}${output}${note ? `\n${note}` : ""}`,
          }),
        );
      })();
    });
  });
}

/** Start failures of a program that cannot be run as it is: a folder, a file not executable. */
const notRunnable = new Set(["EACCES", "EPERM", "EISDIR", "ENOTDIR", "ENOEXEC"]);

/**
 * Why the CLI did not start: `COMMAND_NOT_FOUND` when it is not there, `INVALID_BACKEND_CONFIG`
 * when it cannot be run (not executable, a folder): the harness's configuration, which no rerun
 * mends; else `COMMAND_FAILED` (out of processes or memory: a rerun may work).
 */
function startFailure(program: string, error: NodeJS.ErrnoException): VibeError {
  const fix =
    "The harness's worker command is wrong: fix its configuration (serve --vibe-command); a retry runs the same command.";
  if (error.code === "ENOENT") {
    return new VibeError({
      code: "COMMAND_NOT_FOUND",
      message: `could not start '${program}': the command was not found (${error.message}). ${fix}`,
      cause: error,
    });
  }
  if (error.code !== undefined && notRunnable.has(error.code)) {
    return new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: `could not start '${program}': it cannot be run, not being an executable file or not executable by this user (${error.message}). ${fix}`,
      cause: error,
    });
  }
  return new VibeError({
    code: "COMMAND_FAILED",
    message: `could not start '${program}': ${error.message}. Check the command backend's command.`,
    cause: error,
  });
}

/**
 * After the CLI exited: ends what it left running outside its process group — those holding its
 * output (see {@link endOutputHolders}), then those carrying its mark (a daemon on /dev/null).
 * Returns a note saying what was found, or "" when nothing was.
 */
async function endLeftovers(
  child: ChildProcess,
  closed: Promise<void>,
  pipes: string[],
  mark: string,
): Promise<string> {
  const holders = await endOutputHolders(child, closed, pipes);
  const daemons = (await settledMarkedProcesses(mark)).filter(({ pid }) => !holders.ended.has(pid)).length;
  if (daemons === 0) return holders.note;
  await terminateProcess(child, { mark, graceMs: holderKillMs });
  const note = `(the CLI exited, leaving ${daemons} ${countNoun(daemons, "background processes")} running; ${daemons === 1 ? "it was" : "they were"} ended)`;
  return holders.note ? `${holders.note}\n${note}` : note;
}

/**
 * After the CLI exited: waits (bounded) for the rest of its output, then ends the processes that
 * still hold its output open (what it left running outside its process group) and stops reading.
 * Returns a note saying what was found ("" when the output closed by itself) and whom it ended.
 */
async function endOutputHolders(
  child: ChildProcess,
  closed: Promise<void>,
  pipes: string[],
): Promise<{ note: string; ended: Set<number> }> {
  if (await settleWithin(closed, outputGraceMs)) return { note: "", ended: new Set() };
  const holders = writersOf(pipes);
  const ended = new Set(holders.map(({ pid }) => pid));
  const signalled = signalProcesses(holders, "SIGTERM");
  // SIGKILL (only to those still the processes found) once the SIGTERM's half is up.
  const closedOnTerm = signalled > 0 && (await settleWithin(closed, holderKillMs / 2));
  if (!closedOnTerm) signalProcesses(holders, "SIGKILL");
  if (signalled > 0 && (closedOnTerm || (await settleWithin(closed, holderKillMs / 2)))) {
    const note = `(the CLI exited, leaving ${signalled} ${countNoun(signalled, "background processes")} that held its output open; ${signalled === 1 ? "it was" : "they were"} ended)`;
    return { note, ended };
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
  const note =
    "(the CLI exited, but a background process it left still holds its output open and could not be ended; what it writes is not read)";
  return { note, ended };
}

/**
 * The end of the CLI's output, the worker's result: all of it, or when its start was let go (it
 * was longer than `maxResultChars`), from the first whole line kept, after a line saying so: how
 * many characters of plain text were left out (escape codes are none).
 */
function outputEnd(output: PlainOutputTail): string {
  const text = output.text();
  const dropped = output.dropped();
  if (dropped === 0) return text.trim();
  const newline = text.indexOf("\n");
  const whole = newline >= 0 && newline < text.length - 1 ? text.slice(newline + 1) : text;
  const left = dropped + text.length - whole.length;
  return `(the start of the CLI's output is left out, ${left} ${countNoun(left, "characters")}; its end follows)\n${whole.trim()}`;
}
