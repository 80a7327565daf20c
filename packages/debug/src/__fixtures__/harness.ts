import { expect } from "vitest";
// Test support for the debug integration tests (not shipped: __fixtures__ is excluded from the build).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRegistry,
  createRun,
  resultText,
  signalProcesses,
  type ProcessIdentity,
  type Run,
} from "@tools/registry";
import { debugTool } from "../tool/debug-tool.js";
import { createDebugSupervisor, debugSupervisorKey, type DebugSupervisorOptions } from "../supervisor/debug-supervisor.js";
import { commandLine, descendants, isAlive, processStat } from "../internal/process-tree.js";

export const ci = process.env.CI === "true";
const here = new URL(".", import.meta.url).pathname;

/** Copies a fixture workspace into a fresh temporary directory. */
export function workspace(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tools-debug-${name}-`));
  cpSync(join(here, name), dir, { recursive: true });
  return dir;
}

/** Makes the fixture's `.venv` the way a project would (system site packages: Debian's debugpy). */
export function makeVenv(dir: string): void {
  execFileSync("/usr/bin/python3", ["-m", "venv", "--system-site-packages", "--without-pip", join(dir, ".venv")], { stdio: "ignore" });
}

export function removeWorkspace(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A temporary Go module named `name` whose main.go holds `lines`. */
export function goModule(name: string, lines: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `tools-debug-go${name}-`));
  writeFileSync(join(dir, "go.mod"), `module ${name}\n\ngo 1.19\n`);
  writeFileSync(join(dir, "main.go"), lines.join("\n"));
  return dir;
}

/** Where {@link atBreakpoint} stops: breakpoints on `file`'s `lines`, then `program` launched. */
export interface FirstStop {
  readonly file: string;
  readonly lines: readonly number[];
  readonly program: string;
  /** What the launch's answer says of the stop ("main.go:6 in main.leaf"). */
  readonly where: string;
}

/**
 * A debug run on `dir` launched to its first stop: `body` gets the run's call and the launch's
 * answer; then the run ends, `dir` is removed, and no process of the session is left.
 */
export async function atBreakpoint(
  dir: string,
  stop: FirstStop,
  body: (call: (args: Record<string, unknown>) => Promise<Call>, launch: Call) => Promise<void>,
): Promise<void> {
  const { run, call, sessionPids } = debugRun(dir);
  let pids: number[] = [];
  try {
    await call({ op: "breakpoints", file: stop.file, lines: stop.lines });
    const launch = await call({ op: "launch", program: stop.program });
    expect(launch.text, launch.text).toContain(stop.where);
    pids = sessionPids();
    await body(call, launch);
  } finally {
    await run.dispose();
    removeWorkspace(dir);
  }
  expect(remaining(pids)).toEqual([]);
}

export interface Call {
  text: string;
  isError: boolean;
  code: string | undefined;
}

/**
 * Takes one step (`step_in`, `step_over`, `step_out`) and checks the stop report: a step stop,
 * at `location` ("main.go:9 in main.total"), quoting the source line (`"9 | s := 0"`).
 */
export async function expectStep(
  call: (args: Record<string, unknown>) => Promise<Call>,
  op: "step_in" | "step_over" | "step_out",
  location: string,
  source: string,
): Promise<void> {
  const step = await call({ op });
  expect(step.text).toContain("stopped (step)");
  expect(step.text).toContain(location);
  expect(step.text).toContain(source);
}

/** A run with the debug tool wired, and a `call` that goes through the registry like a model's. */
export function debugRun(dir: string, options: DebugSupervisorOptions = {}, conversationId = "conv-1") {
  const supervisor = createDebugSupervisor(options);
  const run: Run = createRun({ workingDirectory: dir, conversationId, resources: [[debugSupervisorKey, supervisor]] });
  const registry = createRegistry({ tools: [debugTool], approval: "auto" });
  /** One call of the tool, as a model makes it; `signal` cancels it. */
  const call = async (args: Record<string, unknown>, signal?: AbortSignal): Promise<Call> => {
    const result = await registry.invoke(run, { tool: "debug", args, signal });
    return { text: resultText(result), isError: result.isError, code: result.error?.code };
  };
  /** Pids of the session's adapter, its whole tree, and the debuggee pids it learnt. */
  const sessionPids = (): number[] => {
    const session = supervisor.conversation(conversationId).session;
    if (!session) return [];
    const adapter = session.adapterPid;
    const shim = session.spawnedPid;
    return [...new Set([...(shim ? [shim, ...descendants(shim)] : []), ...(adapter ? [adapter] : []), ...session.debuggeePids])];
  };
  return { run, supervisor, registry, call, sessionPids };
}

/** The pids still alive (running or sleeping). */
export function alive(pids: readonly number[]): number[] {
  return pids.filter((pid) => isAlive(pid));
}

/** The pids that still exist at all, zombies included ("no zombie after any session"). */
export function remaining(pids: readonly number[]): string[] {
  return pids.flatMap((pid) => {
    const stat = processStat(pid);
    return stat ? [`${pid} (${stat.state}, parent ${stat.ppid})`] : [];
  });
}

/**
 * Who `pids` are now: each live one with its start time (/proc/<pid>/stat), to be ended later
 * only while it is still that process (see {@link killLeftovers}); the gone ones are left out.
 */
export function identify(pids: readonly number[]): ProcessIdentity[] {
  return pids.flatMap((pid) => {
    const stat = processStat(pid);
    return stat && stat.state !== "Z" ? [{ pid, start: stat.start }] : [];
  });
}

/**
 * The identity of a process a program reported by number ("left 4242"), read when the report is
 * read: only if it runs `command` (what the program started), since by then it may have ended
 * and its pid gone to another process. Undefined when it is gone or runs something else.
 */
export function identifyReported(pid: number, command: readonly string[]): ProcessIdentity | undefined {
  const [identity] = identify([pid]);
  const runs = commandLine(pid);
  return identity && runs?.join("\0") === command.join("\0") ? identity : undefined;
}

/** Those of `processes` still running as the same process (pid and start time). */
export function stillRunning(processes: readonly (ProcessIdentity | undefined)[]): ProcessIdentity[] {
  return processes.filter(
    (one): one is ProcessIdentity => one !== undefined && isAlive(one.pid) && processStat(one.pid)?.start === one.start,
  );
}

/**
 * SIGKILLs those of `processes` still running as the same process (pid and start time): a pid
 * given to another process since (reused under heavy churn) is left alone. Returns how many
 * were signalled.
 */
export function killLeftovers(processes: readonly (ProcessIdentity | undefined)[]): number {
  return signalProcesses(stillRunning(processes), "SIGKILL");
}

/** Waits (at most `ms`) until `check` holds; says whether it did. */
export async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
