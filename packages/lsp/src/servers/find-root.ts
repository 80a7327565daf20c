import { existsSync } from "node:fs";
import { dirname, join, relative, isAbsolute, sep } from "node:path";

/** Whether `path` is `directory` or inside it (a child named `..x` is inside). */
export function isInside(directory: string, path: string): boolean {
  const rel = relative(directory, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The nearest ancestor of `file` (inside `workingDirectory`) holding one of `markers`, with the
 * marker found; undefined when no folder up to the working directory has one.
 */
export function findRoot(
  file: string,
  markers: readonly string[],
  workingDirectory: string,
): { root: string; marker: string } | undefined {
  let directory = dirname(file);
  while (isInside(workingDirectory, directory)) {
    for (const marker of markers) {
      if (existsSync(join(directory, marker))) return { root: directory, marker };
    }
    if (directory === workingDirectory) break;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return undefined;
}
