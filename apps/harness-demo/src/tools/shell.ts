import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import { once } from "node:events";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  createProcessMark,
  defineTool,
  idInUse,
  signalGroup,
  terminateProcess,
  textResult,
  ToolsError,
} from "@tools/registry";
import { z } from "zod";
import { displayPath } from "../internal/display-path.js";
import { OutputBuffer } from "../internal/output-buffer.js";
import { endHolders, outputPipes, startOf } from "./output-holders.js";

/** Seconds a command may run when the call gives no timeout. */
export const defaultShellTimeoutSeconds = 120;
/** The largest timeout a call may ask for. */
export const maxShellTimeoutSeconds = 600;
/**
 * The longest command (UTF-8 bytes). It goes to bash as one argument, and Linux refuses an
 * argument over 128 KiB (MAX_ARG_STRLEN) with E2BIG; this bound stays safely below it.
 */
export const maxCommandBytes = 100_000;
/** Milliseconds between SIGTERM and SIGKILL when a command is stopped. */
const graceMs = 1000;
/** Milliseconds the output may stay open after bash exited, held by a process outside its group. */
const pipeGraceMs = 500;
/**
 * Runs the command (`$1`) once a line (or the end) comes on fd 3: until then bash waits, so the
 * pipes its output goes to can be read from /proc before anything runs. `exec` keeps the process
 * (its id, group and mark); fd 3 is closed for the command; `--` makes a command that starts with
 * `-` a command, not bash's options. What bash acts on as it starts ({@link startupVariables}) is
 * kept from the gate's bash, which would act on it too (source the file twice, trace the gate),
 * and handed to the command's bash through env(1): `$2…` are `NAME=value`.
 */
const gateScript =
  'read -r _ <&3; exec 3<&-; if [ "$#" -gt 1 ]; then exec /usr/bin/env "${@:2}" /bin/bash -c -- "$1"; fi; exec /bin/bash -c -- "$1"';
/** Variables bash acts on as it starts: a file it sources (BASH_ENV), options it sets (xtrace…). */
const startupVariables = ["BASH_ENV", "SHELLOPTS", "BASHOPTS"];

const input = z.object({
  command: z
    .string()
    .min(1)
    .describe(
      `Shell command, run with /bin/bash -c; at most ${maxCommandBytes} bytes (write a longer script to a file and run it).`,
    ),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(maxShellTimeoutSeconds)
    .optional()
    .describe(`Kill the command after this many seconds; default ${defaultShellTimeoutSeconds}.`),
  cwd: z
    .string()
    .optional()
    .describe("Folder to run in, inside the working directory; default the working directory."),
});

/**
 * `shell` (exec tier, one call at a time): runs a command with `/bin/bash -c` in its own process
 * group and with a process mark, owned by the run. When bash exits, on timeout, cancellation or
 * the run's end, the whole group is killed, every process carrying the mark, and every process
 * still holding the command's output pipes (it inherited them from the command). A process that
 * escaped all three (left the group, dropped the mark with `env -i`, closed or redirected every
 * inherited file) cannot be told apart from any other and is not ended: the description says so.
 * The result is the exit code and the combined stdout/stderr, bounded (head and tail kept).
 */
export const shellTool = defineTool({
  name: "shell",
  tier: "exec",
  parallelSafe: false,
  description:
    "Run a shell command (bash) in the working directory and return its exit code and combined output " +
    `(long output keeps its start and end). Killed after timeout_seconds (default ${defaultShellTimeoutSeconds}). ` +
    "Background processes it leaves are ended when it exits (a daemon gets SIGTERM, then SIGKILL after 1 s); " +
    "only one that leaves the process group, clears its environment (env -i) and sends all of its input and output elsewhere (`setsid env -i server </dev/null >/dev/null 2>&1 &`) cannot be found and keeps running. " +
    'Not for reading or editing files: use read, grep, edit. Example: {"command": "npm test 2>&1 | tail -20", "timeout_seconds": 300}',
  input,
  paths: (args) => (args.cwd === undefined ? [] : [args.cwd]),
  // The permission card's question: a long command keeps its end as well as its start (what
  // follows `;` decides what runs); the card's arguments carry it whole.
  summarize: (args) => {
    const command = args.command;
    if (command.length <= 200) return `run \`${command}\``;
    return `run \`${command.slice(0, 100)} …[${command.length - 180} characters left out]… ${command.slice(-80)}\``;
  },
  async execute(args, ctx) {
    const commandBytes = Buffer.byteLength(args.command);
    if (commandBytes > maxCommandBytes) {
      throw new ToolsError({
        code: "COMMAND_TOO_LONG",
        message: `the command is ${commandBytes} bytes, over the limit of ${maxCommandBytes} bytes for one command (the system refuses an argument over 128 KiB); write the script to a file with write, e.g. {"path": "script.sh", "content": "…"}, then run it: bash script.sh`,
        data: { bytes: commandBytes, limit: maxCommandBytes },
      });
    }
    const cwd = args.cwd === undefined ? ctx.run.workingDirectory : ctx.resolvePath(args.cwd);
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new ToolsError({
        code: "INVALID_CWD",
        message: `cwd ${displayPath(ctx.run.workingDirectory, cwd)} is not an existing folder`,
      });
    }
    ctx.signal.throwIfAborted();
    const timeoutSeconds = args.timeout_seconds ?? defaultShellTimeoutSeconds;
    // Everything the command starts carries the mark, also a daemon that left the group and
    // session: it is ended with the command, and by the host's reaper should the host die first.
    const mark = createProcessMark();
    const env: NodeJS.ProcessEnv = { ...process.env, PAGER: "cat", GIT_PAGER: "cat", ...mark.env };
    const handedOn: string[] = [];
    for (const name of startupVariables) {
      if (env[name] === undefined) continue;
      handedOn.push(`${name}=${env[name]}`);
      delete env[name];
    }
    let child: ChildProcess;
    try {
      child = spawn("/bin/bash", ["-c", gateScript, "/bin/bash", args.command, ...handedOn], {
        cwd,
        detached: true,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
        env,
      });
    } catch (error) {
      // Node throws some refusals (E2BIG) at once and emits the others (ENOENT) as `error`.
      throw spawnFailed(error);
    }
    // What holds the command's output pipes later inherited them from it: also a process that left
    // the group and dropped the mark (`setsid env -i …`). Read while bash waits at the gate.
    const pipes = outputPipes(child.pid);
    const since = startOf(child.pid);
    const gate = child.stdio[3] as NodeJS.WritableStream | null;
    gate?.on("error", () => undefined);
    gate?.end("\n");
    const disown = ctx.run.ownProcess(child, {
      group: true,
      mark: mark.value,
      graceMs,
      label: `shell ${child.pid ?? "?"}`,
    });
    const disownHolders = ctx.run.own(
      () => endHolders(pipes, since, graceMs),
      `shell ${child.pid ?? "?"} output holders`,
    );
    // fd 3 (the gate) makes the typings forget that stdout and stderr are pipes.
    const { stdout, stderr } = child as unknown as ChildProcessByStdio<null, Readable, Readable>;
    const output = new OutputBuffer();
    stdout.on("data", (chunk: Buffer) => output.push(chunk, "stdout"));
    stderr.on("data", (chunk: Buffer) => output.push(chunk, "stderr"));

    let stoppedBy: "timeout" | "abort" | undefined;
    let giveUp: () => void = () => undefined;
    const stop = (reason: "timeout" | "abort") => {
      // Only a command still running is stopped: one that already exited did not time out.
      if (stoppedBy || child.exitCode !== null || child.signalCode !== null) return;
      stoppedBy = reason;
      void terminateProcess(child, { group: true, mark: mark.value, graceMs });
      // SIGKILL ends any process; should bash still not be reaped, the call ends anyway.
      setTimeout(giveUp, graceMs + 2000).unref();
    };
    const timer = setTimeout(() => stop("timeout"), timeoutSeconds * 1000);
    const onAbort = () => stop("abort");
    ctx.signal.addEventListener("abort", onAbort, { once: true });

    let outcome: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let pipesHeld = false;
    try {
      outcome = await new Promise<typeof outcome>((resolve, reject) => {
        child.once("error", reject);
        child.once("exit", (code, signal) => resolve({ code, signal }));
        giveUp = () => resolve(undefined);
      });
      // Whatever bash left running ends with it: its group, what left the group (`setsid`, a
      // double fork) by its mark, and what dropped the mark too (`env -i`) by the output pipes it
      // still holds. Then the output: `close` waits for every holder of the pipes, and one out of
      // reach (not ours to signal) may hold them for good, so the wait for the rest is bounded.
      await endLeftovers(child, mark.value, pipes, since);
      pipesHeld = !(await closedWithin(child, pipeGraceMs));
      if (pipesHeld) {
        stdout.destroy();
        stderr.destroy();
      } else {
        disownHolders();
      }
    } catch (error) {
      disown();
      disownHolders();
      throw spawnFailed(error);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    }
    // The run stops owning the process once its group is gone, so dispose never signals a pid
    // the system has given to another process since.
    if (outcome) void disownWhenGroupGone(child.pid, disown);
    const held = pipesHeld
      ? "\n(another process still holds the command's output open and was not ended: one not started by the command, or not ours to signal; what it writes now is not shown)"
      : "";
    const text = (output.empty ? "(no output)" : output.render()) + held;
    if (stoppedBy === "timeout") {
      throw new ToolsError({
        code: "TIMEOUT",
        message: `the command timed out after ${timeoutSeconds} s and was killed (its whole process group); raise timeout_seconds (at most ${maxShellTimeoutSeconds}) or run it in smaller steps. Output so far:\n${text}`,
      });
    }
    if (stoppedBy === "abort") throw new Error("the command was cancelled");
    const status = !outcome
      ? "did not exit after SIGKILL"
      : outcome.code !== null
        ? `exit code ${outcome.code}`
        : `killed by signal ${outcome.signal ?? "unknown"}`;
    return textResult(`${status}\n${text}`);
  },
});

/** The error for a bash the system would not start (`error`: what spawn threw or emitted). */
function spawnFailed(error: unknown): ToolsError {
  const tooBig = (error as NodeJS.ErrnoException).code === "E2BIG";
  return new ToolsError({
    code: "SPAWN_FAILED",
    message: `could not start /bin/bash (${error instanceof Error ? error.message : "?"})${tooBig ? ": the command and the environment together are too large for the system; write the script to a file and run it" : ""}`,
    cause: error,
  });
}

/**
 * Ends what the command left running after bash exited: SIGKILL to its process group (its jobs),
 * and to every process carrying `mark` that left the group (a daemon: `setsid`, a double fork) or
 * still holding the command's output `pipes` (one that dropped the mark too: `setsid env -i …`)
 * SIGTERM first, so that a server or database can shut down cleanly, then SIGKILL after the grace.
 */
async function endLeftovers(
  child: ChildProcess,
  mark: string,
  pipes: readonly string[],
  since: string | undefined,
): Promise<void> {
  signalGroup(child, "SIGKILL");
  // Only what holds the output can be found by it: once the output has closed (the usual end),
  // nothing does, and the /proc scan (every process's stat; ~100 ms with 1 500 processes, and it
  // blocks the event loop) is spared. The group's jobs just killed may take a moment to let go.
  const holders = closedWithin(child, pipeGraceMs).then((closed) =>
    closed ? undefined : endHolders(pipes, since, graceMs),
  );
  await Promise.all([terminateProcess(child, { mark, graceMs }), holders]);
}

/** True once the child's pipes have closed, false when they are still open after `ms`. */
async function closedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.stdout?.closed !== false && child.stderr?.closed !== false) return true;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    once(child, "close").then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return closed;
}

/**
 * Calls `disown` once no process of the group led by `pid` is left (checked every 20 ms, for at
 * most 5 s). A group that outlives that stays owned: its id cannot be reused while it exists, so
 * signalling it at dispose is still safe.
 */
async function disownWhenGroupGone(pid: number | undefined, disown: () => void): Promise<void> {
  const deadline = Date.now() + 5000;
  while (pid !== undefined && groupExists(pid)) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20).unref());
  }
  disown();
}

function groupExists(pid: number): boolean {
  return idInUse(-pid);
}
