import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { foldersUp } from "./find-root.js";

/** Names of a project-local environment folder, in the order tried in each folder. */
export const environmentFolderNames = [".venv", "venv"] as const;

/** A Python environment: a folder holding `bin/python`. */
export interface PythonEnvironment {
  /** The environment folder (absolute). */
  readonly folder: string;
  /** Its interpreter, `<folder>/bin/python`. */
  readonly python: string;
  /** "project": found from the root up; "VIRTUAL_ENV": the activated one. */
  readonly source: "project" | "VIRTUAL_ENV";
}

/** Options of {@link findPythonEnvironment}. */
export interface PythonEnvironmentOptions {
  /** The highest folder searched; only the root itself when absent or when the root is outside it. */
  readonly workingDirectory?: string;
  /** Where `VIRTUAL_ENV` is read; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** `folder/bin/python` when it exists (a broken symlink does not count), else undefined. */
function interpreterIn(folder: string): string | undefined {
  const python = join(folder, "bin", "python");
  return existsSync(python) ? python : undefined;
}

/**
 * The Python environment of a project: `<root>/.venv`, `<root>/venv`, then the same two in each
 * parent up to the working directory, then the activated `$VIRTUAL_ENV`. A folder counts only if
 * it holds `bin/python`. Project-local wins over `VIRTUAL_ENV`, as binaries are found
 * project-locally before PATH: the shell that started the run may have any environment
 * activated, while a project's own folder is the one its code is installed into. Undefined
 * when none is found (pyright then uses the python on PATH).
 */
export function findPythonEnvironment(
  root: string,
  options: PythonEnvironmentOptions = {},
): PythonEnvironment | undefined {
  for (const directory of foldersUp(root, options.workingDirectory)) {
    for (const name of environmentFolderNames) {
      const folder = join(directory, name);
      const python = interpreterIn(folder);
      if (python) return { folder, python, source: "project" };
    }
  }
  const active = (options.env ?? process.env).VIRTUAL_ENV;
  if (active && isAbsolute(active)) {
    const python = interpreterIn(active);
    if (python) return { folder: active, python, source: "VIRTUAL_ENV" };
  }
  return undefined;
}
