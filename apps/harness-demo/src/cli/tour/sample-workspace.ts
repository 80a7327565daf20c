import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const run = promisify(execFile);

/** The sample workspace shipped with the app (`apps/harness-demo/workspace`). */
export const sampleWorkspace = fileURLToPath(new URL("../../../workspace", import.meta.url));

/** The interpreter the Python project's `.venv` is made from: it has ipykernel, debugpy, pandas, matplotlib. */
export const basePython = "/usr/bin/python3";

/** A temporary copy of the sample workspace. */
export interface WorkspaceCopy {
  readonly path: string;
  /** `python/.venv/bin/python` once made, else undefined (and `venvError` says why). */
  readonly python: string | undefined;
  readonly venvError: string | undefined;
  remove(): Promise<void>;
}

/**
 * A fresh temporary copy of the sample workspace, with the Python project's `.venv` made from
 * {@link basePython} (`--system-site-packages`, so its kernel and debugger packages are there).
 */
export async function copySampleWorkspace(options: { venv?: boolean } = {}): Promise<WorkspaceCopy> {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-")));
  const path = join(parent, "workspace");
  await cp(sampleWorkspace, path, {
    recursive: true,
    filter: (source) => !/[/\\](\.venv|__pycache__|build)$/.test(source),
  });
  let python: string | undefined;
  let venvError: string | undefined;
  if (options.venv ?? true) {
    const venv = join(path, "python", ".venv");
    try {
      if (!existsSync(basePython)) throw new Error(`${basePython} is missing`);
      await run(basePython, ["-m", "venv", "--system-site-packages", "--without-pip", venv], {
        timeout: 60_000,
      });
      python = join(venv, "bin", "python");
    } catch (error) {
      venvError = `could not make python/.venv: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { path, python, venvError, remove: () => rm(parent, { recursive: true, force: true }) };
}
