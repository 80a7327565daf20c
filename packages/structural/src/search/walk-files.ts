import type { Dirent } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join, relative as relativePath, sep } from "node:path";
import { isIgnored, parseGitignore, type IgnoreLayer } from "./gitignore.js";

/** Directories never searched, ignored or not. */
const alwaysSkipped = new Set([".git", "node_modules"]);

/**
 * Every file under `root` whose name passes `accept`, in sorted path order, honouring .gitignore
 * files (the root's and each subdirectory's), skipping hidden entries, `.git`, `node_modules` and
 * symlinks. `root` itself is never judged.
 */
export async function walkFiles(
  root: string,
  accept: (name: string) => boolean,
  signal?: AbortSignal,
  outerLayers: readonly IgnoreLayer[] = [],
): Promise<string[]> {
  const out: string[] = [];
  const visit = async (directory: string, relative: string, layers: IgnoreLayer[]): Promise<void> => {
    signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    let scope = layers;
    if (entries.some((entry) => entry.name === ".gitignore" && entry.isFile())) {
      try {
        const rules = parseGitignore(await readFile(join(directory, ".gitignore"), "utf8"));
        scope = [...layers, { base: relative, rules }];
      } catch {
        // An unreadable .gitignore ignores nothing.
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || alwaysSkipped.has(entry.name)) continue;
      const childRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (isIgnored(scope, childRelative, true)) continue;
        await visit(join(directory, entry.name), childRelative, scope);
      } else if (entry.isFile() && accept(entry.name) && !isIgnored(scope, childRelative, false)) {
        out.push(join(directory, entry.name));
      }
    }
  };
  await visit(root, "", [...outerLayers]);
  return out.sort();
}

/**
 * The .gitignore layers of the directories from `top` (the working directory) down to the parent
 * of `root`, so searching a subfolder still honours the workspace's ignore files.
 */
export async function outerIgnoreLayers(top: string, root: string): Promise<IgnoreLayer[]> {
  const rel = relativePath(top, root);
  if (rel === "" || rel.startsWith("..")) return [];
  const layers: IgnoreLayer[] = [];
  let directory = dirname(root);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(directory);
    if (directory === top || dirname(directory) === directory) break;
    directory = dirname(directory);
  }
  for (const dir of chain) {
    try {
      const rules = parseGitignore(await readFile(join(dir, ".gitignore"), "utf8"));
      const prefix = `${relativePath(dir, root).split(sep).join("/")}/`;
      layers.push({ base: "", prefix, rules });
    } catch {
      // No .gitignore here.
    }
  }
  return layers;
}
