import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** True when `path` is an executable regular file. */
export function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The directories of a PATH string, empty entries dropped. */
export function pathDirectories(searchPath: string): string[] {
  return searchPath.split(delimiter).filter((entry) => entry !== "");
}

/** The first executable called `name` on the search path. */
export function findOnPath(name: string, searchPath: string): string | undefined {
  for (const directory of pathDirectories(searchPath)) {
    const candidate = join(directory, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The executable of a tool installed under versioned names: the plain `base` first, then
 * `base-NN` with the highest NN, searched over the whole PATH (Debian's lldb-19 installs only
 * `lldb-dap-19` on PATH).
 */
export function findVersioned(base: string, searchPath: string): string | undefined {
  const plain = findOnPath(base, searchPath);
  if (plain) return plain;
  const pattern = new RegExp(`^${base.replace(/[-.]/g, "\\$&")}-(\\d+)$`);
  let best: { version: number; path: string } | undefined;
  for (const directory of pathDirectories(searchPath)) {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      continue;
    }
    for (const name of names) {
      const match = pattern.exec(name);
      if (!match) continue;
      const version = Number(match[1]);
      const path = join(directory, name);
      if ((!best || version > best.version) && isExecutable(path)) best = { version, path };
    }
  }
  return best?.path;
}

/** Every executable called `name` on the search path, in PATH order. */
export function findAllOnPath(name: string, searchPath: string): string[] {
  return pathDirectories(searchPath)
    .map((directory) => join(directory, name))
    .filter((candidate) => isExecutable(candidate));
}
