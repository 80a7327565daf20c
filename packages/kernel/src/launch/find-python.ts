import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
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

/** Throws `KERNEL_NOT_FOUND` unless the interpreter can import ipykernel (checked without importing it). */
export async function assertIpykernel(interpreter: PythonInterpreter | undefined): Promise<void> {
  if (interpreter === undefined) {
    throw new KernelError({
      code: "KERNEL_NOT_FOUND",
      message:
        "no Python interpreter found: no .venv/bin/python or venv/bin/python in the working directory and no python3 on PATH. Create a virtual environment with ipykernel (python3 -m venv .venv && .venv/bin/python -m pip install ipykernel), or use language 'javascript'.",
    });
  }
  if (withIpykernel.has(interpreter.path)) return;
  const found = await new Promise<boolean | string>((resolve) => {
    execFile(
      interpreter.path,
      ["-c", "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('ipykernel') else 3)"],
      { timeout: 15_000 },
      (error) => {
        if (!error) resolve(true);
        else if (error.code === 3) resolve(false);
        else resolve(error.message);
      },
    );
  });
  if (found === true) {
    withIpykernel.add(interpreter.path);
    return;
  }
  const why = found === false ? "has no ipykernel module" : `could not be run (${found})`;
  throw new KernelError({
    code: "KERNEL_NOT_FOUND",
    message: `the Python interpreter ${interpreter.path} (from ${interpreter.source}) ${why}. Install it into that interpreter with \`${interpreter.path} -m pip install ipykernel\` (or create .venv with a Python that has it), then call eval again.`,
    data: { interpreter: interpreter.path },
  });
}
