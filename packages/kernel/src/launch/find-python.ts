import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { terminateProcess } from "@tools/registry";
import { KernelError } from "../kernel-error.js";

/** The interpreter a Python kernel runs on, and where it was found. */
export interface PythonInterpreter {
  readonly path: string;
  /** "the project's .venv", "PATH", "the configured interpreter". */
  readonly source: string;
}

/**
 * The project's interpreter: `.venv/bin/python`, then `venv/bin/python` in the working directory,
 * then `python3` / `python` on PATH. A python from PATH is a different environment than the
 * project's, so the project-local one always wins.
 */
export function findPython(workingDirectory: string, configured?: string): PythonInterpreter | undefined {
  if (configured !== undefined) return { path: configured, source: "the configured interpreter" };
  for (const folder of [".venv", "venv"]) {
    const candidate = join(workingDirectory, folder, "bin", "python");
    if (existsSync(candidate)) return { path: candidate, source: `the project's ${folder}` };
  }
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    if (directory === "") continue;
    for (const name of ["python3", "python"]) {
      const candidate = join(directory, name);
      if (existsSync(candidate)) return { path: candidate, source: "PATH" };
    }
  }
  return undefined;
}

const withIpykernel = new Set<string>();

/** How long the interpreter gets to say whether it has ipykernel, in ms. */
const probeTimeoutMs = 15_000;

const probeCode = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('ipykernel') else 3)";

type ProbeResult =
  | { readonly kind: "found" }
  | { readonly kind: "missing" }
  | { readonly kind: "timeout" }
  | { readonly kind: "failed"; readonly why: string };

/**
 * Asks the interpreter whether it can import ipykernel (without importing it). It runs in its own
 * process group: one that does not answer in time is ended with everything it started.
 */
function probeIpykernel(path: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(path, ["-c", probeCode], { detached: true, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    const outcome = (): ProbeResult => {
      if (exit?.code === 0) return { kind: "found" };
      if (exit?.code === 3) return { kind: "missing" };
      const how = exit?.signal
        ? `it was ended by ${exit.signal}`
        : `it exited with code ${String(exit?.code)}`;
      return { kind: "failed", why: `${how}${stderr.trim() ? `: ${stderr.trim()}` : ""}` };
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      // It exited, and only its output is held open (by something it left): it did answer.
      if (exit) {
        child.stderr.destroy();
        return settle(outcome());
      }
      // Its end, which the stop below causes, is not an answer.
      timedOut = true;
      void terminateProcess(child, { group: true, graceMs: 1000 }).then(() => settle({ kind: "timeout" }));
    }, probeTimeoutMs);
    child.once("error", (error) => settle({ kind: "failed", why: error.message }));
    child.once("exit", (code, signal) => {
      exit = { code, signal };
    });
    child.once("close", () => {
      if (!timedOut) settle(outcome());
    });
  });
}

/** Throws `KERNEL_NOT_FOUND` unless the interpreter can import ipykernel (checked without importing it); `KERNEL_TIMEOUT` when it does not answer within 15 s. */
export async function assertIpykernel(interpreter: PythonInterpreter | undefined): Promise<void> {
  if (interpreter === undefined) {
    throw new KernelError({
      code: "KERNEL_NOT_FOUND",
      message:
        "no Python interpreter found: no .venv/bin/python or venv/bin/python in the working directory and no python3 on PATH. Create a virtual environment with ipykernel (python3 -m venv .venv && .venv/bin/python -m pip install ipykernel), or use language 'javascript'.",
    });
  }
  if (withIpykernel.has(interpreter.path)) return;
  const found = await probeIpykernel(interpreter.path);
  if (found.kind === "found") {
    withIpykernel.add(interpreter.path);
    return;
  }
  const named = `the Python interpreter ${interpreter.path} (from ${interpreter.source})`;
  if (found.kind === "timeout") {
    throw new KernelError({
      code: "KERNEL_TIMEOUT",
      message: `${named} did not answer within ${probeTimeoutMs / 1000} s when asked whether it has ipykernel, and was stopped. Check that it runs (\`${interpreter.path} --version\`), or configure another interpreter, then call eval again.`,
      data: { interpreter: interpreter.path },
    });
  }
  if (found.kind === "failed") {
    throw new KernelError({
      code: "KERNEL_NOT_FOUND",
      message: `${named} could not be run (${found.why}). Check that it is a working Python (\`${interpreter.path} --version\`), or configure another interpreter, then call eval again.`,
      data: { interpreter: interpreter.path },
    });
  }
  throw new KernelError({
    code: "KERNEL_NOT_FOUND",
    message: `${named} has no ipykernel module. Install it into that interpreter with \`${interpreter.path} -m pip install ipykernel\` (or create .venv with a Python that has it), then call eval again.`,
    data: { interpreter: interpreter.path },
  });
}
