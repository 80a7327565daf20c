import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseGitignore, type IgnoreMatcher } from "./gitignore.js";

/** Folders never searched, whatever `.gitignore` says. */
const alwaysSkipped = new Set([".git", "node_modules"]);

/** The root `.gitignore` of `workingDirectory` as a matcher; nothing is ignored without one. */
export async function rootIgnore(workingDirectory: string): Promise<IgnoreMatcher> {
  try {
    return parseGitignore(await readFile(join(workingDirectory, ".gitignore"), "utf8"));
  } catch {
    return () => false;
  }
}

/**
 * Yields the files under `folder` (absolute path) as paths relative to the working directory,
 * in a stable sorted order, skipping `.git`, `node_modules` and what `ignored` says. Symlinks are
 * not followed.
 */
export async function* walkFiles(
  folder: string,
  relativeFolder: string,
  ignored: IgnoreMatcher,
  signal: AbortSignal,
): AsyncGenerator<{ absolute: string; relative: string }> {
  signal.throwIfAborted();
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative =
      relativeFolder === "" || relativeFolder === "." ? entry.name : `${relativeFolder}/${entry.name}`;
    const absolute = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (alwaysSkipped.has(entry.name) || ignored(relative, true)) continue;
      yield* walkFiles(absolute, relative, ignored, signal);
    } else if (entry.isFile() && !ignored(relative, false)) {
      yield { absolute, relative };
    }
  }
}
