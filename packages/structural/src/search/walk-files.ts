import type { Dirent } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative as relativePath, sep } from "node:path";
import { isIgnored, parseGitignore, type IgnoreLayer } from "./gitignore.js";

/** Directories never searched, ignored or not. */
const alwaysSkipped = new Set([".git", "node_modules"]);

/**
 * A directory's ignore files, lowest precedence first, as ripgrep and ast-grep read them: the
 * repository's `.git/info/exclude` (where `.git` is), `.gitignore`, then `.ignore`.
 */
const ignoreFiles = [join(".git", "info", "exclude"), ".gitignore", ".ignore"] as const;

/** The rules of each ignore file in `directory` (see `ignoreFiles`); `names` are its entries, when read. */
async function ignoreRules(
  directory: string,
  names?: ReadonlySet<string>,
): Promise<ReturnType<typeof parseGitignore>[]> {
  const out: ReturnType<typeof parseGitignore>[] = [];
  for (const file of ignoreFiles) {
    if (names && !names.has(file.split(sep)[0]!)) continue;
    try {
      out.push(parseGitignore(await readFile(join(directory, file), "utf8")));
    } catch {
      // Absent or unreadable: it ignores nothing.
    }
  }
  return out;
}

/**
 * Every file under `root` whose name passes `accept`, in sorted path order, honouring .gitignore
 * and .ignore files (the root's and each subdirectory's) and `.git/info/exclude`, skipping hidden entries, `.git`, `node_modules` and
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
    const names = new Set(entries.map((entry) => entry.name));
    if (names.has(".git") || names.has(".gitignore") || names.has(".ignore")) {
      const found = await ignoreRules(directory, names);
      if (found.length > 0) scope = [...layers, ...found.map((rules) => ({ base: relative, rules }))];
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

/** The nearest directory at or above `directory` that holds `.git` (a folder, or a worktree's file). */
async function repositoryRoot(directory: string): Promise<string | undefined> {
  for (let current = directory; ; current = dirname(current)) {
    try {
      await stat(join(current, ".git"));
      return current;
    } catch {
      // Not here: look one level up.
    }
    if (dirname(current) === current) return undefined;
  }
}

/** Whether `path` is `directory` or inside it. */
function within(directory: string, path: string): boolean {
  const rel = relativePath(directory, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The ignore layers (see `ignoreFiles`) of the directories above `root`, so searching a subfolder
 * still honours the workspace's ignore files: as ripgrep and ast-grep read them, from the root of
 * the nearest git repository holding `root` down to its parent (an agent working in `packages/a`
 * of a repository whose .gitignore names `dist/` does not search `packages/a/dist`; none when
 * `root` is that root, also inside another repository); outside any repository, from `top` (the
 * working directory) down.
 */
export async function outerIgnoreLayers(top: string, root: string): Promise<IgnoreLayer[]> {
  // The nearest repository holding the folder searched, that folder included: ignore files
  // above a repository's root are not its own (a nested project in a dotfiles home).
  const repository = await repositoryRoot(root);
  const start = repository ?? (within(top, root) ? top : undefined);
  if (start === undefined || start === root) return [];
  const layers: IgnoreLayer[] = [];
  let directory = dirname(root);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(directory);
    if (directory === start || dirname(directory) === directory) break;
    directory = dirname(directory);
  }
  for (const dir of chain) {
    const prefix = `${relativePath(dir, root).split(sep).join("/")}/`;
    for (const rules of await ignoreRules(dir)) layers.push({ base: "", prefix, rules });
  }
  return layers;
}
