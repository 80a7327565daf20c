import { spawn } from "node:child_process";
import { boundText, terminateProcess } from "@tools/registry";
import { VibeError } from "../errors/vibe-error.js";
import { abortReason } from "../internal/abort.js";
import { TailBuffer } from "../internal/tail-buffer.js";
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
 * re-briefed, or the run ends. The CLI's own edits do not pass the registry's approval gate:
 * configure its permissions itself.
 */
export function createCommandBackend(options: CommandBackendOptions): WorkerBackend {
  const [program] = options.command;
  if (program === undefined || program === "") {
    throw new VibeError({
      code: "INVALID_BACKEND_CONFIG",
      message: 'the command backend needs a command: an argv array such as ["claude", "-p"]',
    });
  }
  const maxResultChars = options.maxResultChars ?? 20_000;
  return {
    description: `command ${options.command.join(" ")}`,
    perform(task: WorkerTask): Promise<string> {
      const values: Record<string, string> = {
        tier: task.tier,
        model: options.models?.[task.tier] ?? "",
        label: task.label,
        workerId: task.workerId,
        cwd: task.workingDirectory,
      };
      const argv = options.command.map((part) =>
        part.replace(/\{(tier|model|label|workerId|cwd)\}/g, (_, name: string) => values[name] ?? ""),
      );
      return runCommand(argv, task, options, maxResultChars);
    },
  };
}

function runCommand(
  argv: string[],
  task: WorkerTask,
  options: CommandBackendOptions,
  maxResultChars: number,
): Promise<string> {
  if (task.signal.aborted) return Promise.reject(abortReason(task.signal));
  const [program, ...args] = argv as [string, ...string[]];
  return new Promise<string>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: task.workingDirectory,
      env: {
        ...process.env,
        ...options.env,
        VIBE_WORKER_ID: task.workerId,
        VIBE_WORKER_TIER: task.tier,
        VIBE_WORKER_LABEL: task.label,
      },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const stdout = new TailBuffer(maxResultChars);
    const stderr = new TailBuffer(4000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout.push(chunk);
      const line = lastLine(chunk);
      if (line) task.progress(line);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
    // The CLI may exit without reading its stdin; that is not a failure of ours.
    child.stdin.on("error", () => undefined);
    child.stdin.end(task.brief);

    let stopping: Promise<void> | undefined;
    const onAbort = (): void => {
      stopping = terminateProcess(child, { group: true, graceMs: options.graceMs ?? 2000 });
    };
    task.signal.addEventListener("abort", onAbort, { once: true });

    let spawnError: Error | undefined;
    child.on("error", (error) => {
      spawnError = error;
    });
    child.on("close", (code, signal) => {
      task.signal.removeEventListener("abort", onAbort);
      void (async () => {
        // Whatever the CLI left running in its process group ends with it.
        await (stopping ?? terminateProcess(child, { group: true, graceMs: 0 }));
        if (task.signal.aborted) return reject(abortReason(task.signal));
        if (spawnError) {
          return reject(
            new VibeError({
              code: "COMMAND_FAILED",
              message: `could not start '${program}': ${spawnError.message}. Check the command backend's command.`,
              cause: spawnError,
            }),
          );
        }
        if (code === 0) return resolve(stdout.text().trim());
        const why = signal ? `was ended by ${signal}` : `exited with code ${String(code)}`;
        const errText = boundText(stderr.text().trim() || stdout.text().trim(), {
          maxLines: 20,
          keep: "tail",
        }).text;
        reject(
          new VibeError({
            code: "COMMAND_FAILED",
            message: `'${argv.join(" ")}' ${why}${errText ? `; its last output:\n${errText}` : ""}`,
          }),
        );
      })();
    });
  });
}

function lastLine(chunk: string): string {
  const lines = chunk.split("\n").filter((line) => line.trim() !== "");
  const line = lines[lines.length - 1] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
