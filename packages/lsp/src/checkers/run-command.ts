import { spawn, type ChildProcess } from "node:child_process";
import { createProcessMark, terminateProcess } from "@tools/registry";

/** What a finished command left. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code; checkers exit non-zero when they find problems. */
  readonly exitCode: number;
}

/** The last lines a finished command printed (stderr, then stdout; at most 5, joined by " | "). */
export function outputTail(output: CommandOutput): string {
  const lines = `${output.stderr}\n${output.stdout}`.split("\n").filter((line) => line.trim() !== "");
  return lines.slice(-5).join(" | ") || "(nothing)";
}

/** Takes a child process into the run's keeping; returns the function that lets it go. */
export type ProcessOwner = (child: ChildProcess) => () => void;

/** Options of {@link runCommand}. */
export interface RunOptions {
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Milliseconds before the command (its whole process group) is killed; it then rejects. */
  readonly timeoutMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Owns the process while it runs, so the run's end kills it (and what it started). */
  readonly own?: ProcessOwner;
  /** How errors name the command ("tsc"); the command as given when absent. */
  readonly name?: string;
}

/** Output kept per stream; the rest is dropped (a checker's report fits well within it). */
const maxOutputBytes = 64 * 1024 * 1024;

function collect(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on("data", (chunk: Buffer) => {
    if (size >= maxOutputBytes) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return () => Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs a checker or compiler to its end, in a process group of its own. Resolves with its
 * output and exit code whatever the code; rejects only when it cannot run (not found) or was
 * stopped — at the timeout, on cancel, or when its owner (the run) ends — and then the whole
 * group is ended (SIGTERM, SIGKILL after a grace), so `go vet`'s or cargo's children go too, and
 * so is every process carrying its process mark (one that left the group, a daemon).
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandOutput> {
  const name = options.name ?? command;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new Error(`${name} was cancelled before it started`));
      return;
    }
    // What it starts carries the mark, also a daemon that leaves the group: it ends with it.
    const mark = createProcessMark();
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...mark.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const disown = options.own?.(child) ?? (() => undefined);
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    let stopped: string | undefined;
    let abandon: NodeJS.Timeout | undefined;
    const stop = (why: string): void => {
      if (stopped !== undefined) return;
      stopped = why;
      void terminateProcess(child, { group: true, mark: mark.value, graceMs: 1_000 });
      // 'close' waits for every holder of the output pipes: a process that left the group
      // (setsid, a daemon) could hold them for good. The wait ends anyway once the group is gone.
      abandon = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle();
        disown();
        reject(new Error(`${name} was stopped (${why}); a process it started still held its output`));
      }, 3_000);
    };
    const timer = setTimeout(
      () => stop(`still running at its ${formatBound(options.timeoutMs)} bound`),
      Math.max(1, options.timeoutMs),
    );
    const onAbort = (): void => stop("cancelled");
    options.signal.addEventListener("abort", onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      clearTimeout(abandon);
      options.signal.removeEventListener("abort", onAbort);
    };
    child.once("error", (error) => {
      settle();
      disown();
      reject(error);
    });
    child.once("close", (code, signal) => {
      settle();
      // Whatever it left running, in its group or carrying its mark, ends with it.
      void terminateProcess(child, { group: true, mark: mark.value, graceMs: 0 }).finally(disown);
      if (stopped !== undefined) reject(new Error(`${name} was stopped (${stopped})`));
      else if (code === null) reject(new Error(`${name} was killed by ${signal ?? "a signal"}`));
      else resolve({ stdout: stdout(), stderr: stderr(), exitCode: code });
    });
  });
}

/** A bound as shown: "180 s", "1.5 s", "300 ms". */
function formatBound(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${ms} ms`;
}
