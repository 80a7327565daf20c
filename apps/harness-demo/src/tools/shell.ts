import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { defineTool, terminateProcess, textResult, ToolsError } from "@tools/registry";
import { z } from "zod";
import { displayPath } from "../internal/display-path.js";
import { OutputBuffer } from "../internal/output-buffer.js";

/** Seconds a command may run when the call gives no timeout. */
export const defaultShellTimeoutSeconds = 120;
/** The largest timeout a call may ask for. */
export const maxShellTimeoutSeconds = 600;

const input = z.object({
  command: z.string().min(1).describe("Shell command, run with /bin/bash -c."),
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
 * group, owned by the run. On timeout, cancellation or the run's end the whole group is killed.
 * The result is the exit code and the combined stdout/stderr, bounded (head and tail kept).
 */
export const shellTool = defineTool({
  name: "shell",
  tier: "exec",
  parallelSafe: false,
  description:
    "Run a shell command (bash) in the working directory and return its exit code and combined output " +
    `(long output keeps its start and end). Killed after timeout_seconds (default ${defaultShellTimeoutSeconds}). ` +
    'Background processes it leaves are ended when it exits. Not for reading or editing files: use read, grep, edit. Example: {"command": "npm test 2>&1 | tail -20", "timeout_seconds": 300}',
  input,
  paths: (args) => (args.cwd === undefined ? [] : [args.cwd]),
  summarize: (args) =>
    `run \`${args.command.length > 120 ? `${args.command.slice(0, 119)}…` : args.command}\``,
  async execute(args, ctx) {
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
    const child = spawn("/bin/bash", ["-c", args.command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PAGER: "cat", GIT_PAGER: "cat" },
    });
    ctx.run.ownProcess(child, { group: true, graceMs: 1000, label: `shell ${child.pid ?? "?"}` });
    const output = new OutputBuffer();
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));

    let stoppedBy: "timeout" | "abort" | undefined;
    const stop = (reason: "timeout" | "abort") => {
      if (stoppedBy) return;
      stoppedBy = reason;
      void terminateProcess(child, { group: true, graceMs: 1000 });
    };
    const timer = setTimeout(() => stop("timeout"), timeoutSeconds * 1000);
    const onAbort = () => stop("abort");
    ctx.signal.addEventListener("abort", onAbort, { once: true });

    let outcome: { code: number | null; signal: NodeJS.Signals | null };
    try {
      outcome = await new Promise((resolve, reject) => {
        child.once("error", reject);
        // `close` waits for the pipes; a background process that kept them open is ended below.
        child.once("close", (code, signal) => resolve({ code, signal }));
        child.once("exit", () => {
          if (!stoppedBy) setTimeout(() => killLeftovers(child.pid), 200).unref();
        });
      });
    } catch (error) {
      throw new ToolsError({
        code: "SPAWN_FAILED",
        message: `could not start /bin/bash (${error instanceof Error ? error.message : "?"})`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    }
    const text = output.empty ? "(no output)" : output.render();
    if (stoppedBy === "timeout") {
      throw new ToolsError({
        code: "TIMEOUT",
        message: `the command timed out after ${timeoutSeconds} s and was killed (its whole process group); raise timeout_seconds (at most ${maxShellTimeoutSeconds}) or run it in smaller steps. Output so far:\n${text}`,
      });
    }
    if (stoppedBy === "abort") throw new Error("the command was cancelled");
    const status =
      outcome.code !== null ? `exit code ${outcome.code}` : `killed by signal ${outcome.signal ?? "unknown"}`;
    return textResult(`${status}\n${text}`);
  },
});

/** Ends processes the command left running in its group after bash itself exited. */
function killLeftovers(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is empty: nothing was left behind.
  }
}
