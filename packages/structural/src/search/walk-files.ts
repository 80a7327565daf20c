import { constants, type Dirent } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative as relativePath, resolve, sep } from "node:path";
import { ignoringRule, parseGitignore, type IgnoreLayer, type IgnoringRule, type Rule } from "./gitignore.js";

/** Directories never searched, ignored or not. */
const alwaysSkipped = new Set([".git", "node_modules"]);

/**
 * A directory's ignore files, lowest precedence first, as ripgrep and ast-grep read them: the
 * repository's `info/exclude` (where `.git` is), `.gitignore`, then `.ignore`.
 */
type IgnoreFile = "exclude" | ".gitignore" | ".ignore";
const ignoreFiles: readonly IgnoreFile[] = ["exclude", ".gitignore", ".ignore"];

/** A `.git` file or `commondir` longer than this is not git's: it names no git directory. */
const maxPointerBytes = 64 * 1024;

/** An ignore file longer than this is not read: it ignores nothing. */
const maxIgnoreFileBytes = 16 * 1024 * 1024;

/**
 * The text of the regular file at `path` of at most `maxBytes`, or undefined when it is absent,
 * unreadable, larger, or not a regular file. Opened without blocking and judged by the open
 * file's type: a FIFO named `.ignore` (in any folder above the one searched) must not hang the
 * search on its open or read.
 */
async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    return await handle.readFile("utf8");
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The first line of a small text file, or undefined when it is absent, unreadable or too large. */
async function firstLine(path: string): Promise<string | undefined> {
  return (await readSmallFile(path, maxPointerBytes))?.split(/\r?\n/, 1)[0];
}

/**
 * The `info/exclude` of the repository whose `.git` is in `directory`: `.git/info/exclude` for a
 * `.git` folder; for a `.git` file (a worktree's or a submodule's, `gitdir: <path>`, relative to
 * `directory`), that git directory's, or, when it has a `commondir` (a worktree), the common
 * directory's, as git and ripgrep read it. Undefined without `.git` or when it names no directory.
 */
async function excludePath(directory: string): Promise<string | undefined> {
  const dotGit = join(directory, ".git");
  let info;
  try {
    info = await stat(dotGit);
  } catch {
    return undefined;
  }
  if (info.isDirectory()) return join(dotGit, "info", "exclude");
  const line = await firstLine(dotGit);
  if (!line?.startsWith("gitdir: ")) return undefined;
  const gitDirectory = resolve(directory, line.slice("gitdir: ".length).trim());
  const common = await firstLine(join(gitDirectory, "commondir"));
  const commonDirectory = common?.trim() ? resolve(gitDirectory, common.trim()) : gitDirectory;
  return join(commonDirectory, "info", "exclude");
}

/** The rules of one ignore file, and its path. */
interface IgnoreFileRules {
  readonly rules: Rule[];
  readonly source: string;
}

/** The rules of each ignore file in `directory` (see `ignoreFiles`) of `kinds`; `names` are its entries, when read. */
async function ignoreRules(
  directory: string,
  names?: ReadonlySet<string>,
  kinds: readonly IgnoreFile[] = ignoreFiles,
): Promise<IgnoreFileRules[]> {
  const out: IgnoreFileRules[] = [];
  for (const file of kinds) {
    if (names && !names.has(file === "exclude" ? ".git" : file)) continue;
    const path = file === "exclude" ? await excludePath(directory) : join(directory, file);
    if (path === undefined) continue;
    // Absent, unreadable, too large or not a regular file: it ignores nothing.
    const text = await readSmallFile(path, maxIgnoreFileBytes);
    if (text !== undefined) out.push({ rules: parseGitignore(text), source: path });
  }
  return out;
}

/** What one ignore rule left out of a walk. */
export interface IgnoredByRule {
  /** The ignore file (absolute), its line and the rule as written. */
  readonly source: string;
  readonly line: number;
  readonly text: string;
  /** Files (of those `accept` takes) and folders it left out. */
  files: number;
  folders: number;
  /** The first path it left out (absolute). */
  example: string;
  exampleIsFolder: boolean;
  /**
   * For a folder: whether naming it as the search's root would search its files (the rules in
   * scope do not ignore a file directly in it, as `*` or `build/**` would).
   */
  namingSearches: boolean;
  /** For a folder example: a file `accept` takes in it, when {@link settleIgnoredFolders} found one. */
  fileInExample?: string;
  /** The first file it left out, and the folders (see {@link settleIgnoredFolders}). */
  firstFile?: string;
  readonly folderList: { readonly path: string; readonly namingSearches: boolean; file?: string }[];
}

/**
 * What ignore rules left out of a walk, counted as it goes (no second walk): files of those
 * `accept` takes, and folders (not entered, so their files are not counted), by rule in the
 * order first met.
 */
export interface IgnoreTally {
  files: number;
  folders: number;
  readonly byRule: Map<Rule, IgnoredByRule>;
}

export function ignoreTally(): IgnoreTally {
  return { files: 0, folders: 0, byRule: new Map() };
}

/** A name no rule written for real files matches unless it matches every name (`*`, `dir/**`). */
const probeName = "\u0000";

/**
 * Every file under `root` whose name passes `accept`, in sorted path order, honouring .gitignore
 * and .ignore files (the root's and each subdirectory's) and `info/exclude` (also a worktree's or
 * submodule's, whose `.git` is a file naming its git directory), skipping hidden entries, `.git`, `node_modules` and
 * symlinks. `root` itself is never judged.
 */
export async function walkFiles(
  root: string,
  accept: (name: string) => boolean,
  signal?: AbortSignal,
  outerLayers: readonly IgnoreLayer[] = [],
  tally?: IgnoreTally,
): Promise<string[]> {
  const out: string[] = [];
  const count = (
    scope: readonly IgnoreLayer[],
    ignored: IgnoringRule,
    path: string,
    relative: string,
    folder: boolean,
  ): void => {
    if (!tally) return;
    if (folder) tally.folders++;
    else tally.files++;
    const namingSearches = folder && ignoringRule(scope, `${relative}/${probeName}`, false) === undefined;
    let entry = tally.byRule.get(ignored.rule);
    if (!entry) {
      entry = {
        source: ignored.source ?? "an ignore file",
        line: ignored.rule.line,
        text: ignored.rule.text,
        files: 0,
        folders: 0,
        example: path,
        exampleIsFolder: folder,
        namingSearches,
        folderList: [],
      };
      tally.byRule.set(ignored.rule, entry);
    }
    if (folder) {
      entry.folders++;
      entry.folderList.push({ path, namingSearches });
    } else {
      entry.files++;
      entry.firstFile ??= path;
    }
  };
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
      if (found.length > 0)
        scope = [...layers, ...found.map(({ rules, source }) => ({ base: relative, rules, source }))];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || alwaysSkipped.has(entry.name)) continue;
      const childRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        const ignored = ignoringRule(scope, childRelative, true);
        if (ignored) {
          count(scope, ignored, join(directory, entry.name), childRelative, true);
          continue;
        }
        await visit(join(directory, entry.name), childRelative, scope);
      } else if (entry.isFile() && accept(entry.name)) {
        const ignored = ignoringRule(scope, childRelative, false);
        if (ignored) count(scope, ignored, join(directory, entry.name), childRelative, false);
        else out.push(join(directory, entry.name));
      }
    }
  };
  await visit(root, "", [...outerLayers]);
  return out.sort();
}

/** Directory entries {@link settleIgnoredFolders} reads at most, over all the folders it looks into. */
const settleEntryBudget = 20_000;

/**
 * A file `accept` takes in `directory` (the first in sorted order; dot entries and
 * `node_modules` not looked into), false when there is none, true when the budget ran out first
 * (not known, so counted).
 */
async function holdsAccepted(
  directory: string,
  accept: (name: string) => boolean,
  budget: { left: number },
  signal?: AbortSignal,
): Promise<string | boolean> {
  const stack = [directory];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    signal?.throwIfAborted();
    if (budget.left <= 0) return true;
    let entries: Dirent[];
    try {
      entries = await readdir(next, { withFileTypes: true });
    } catch {
      continue;
    }
    budget.left -= entries.length;
    // Files first, then folders in sorted order (pushed last to first).
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries.toReversed())
      if (!entry.name.startsWith(".") && entry.isFile() && accept(entry.name)) return join(next, entry.name);
    for (const entry of entries)
      if (!entry.name.startsWith(".") && !alwaysSkipped.has(entry.name) && entry.isDirectory())
        stack.push(join(next, entry.name));
  }
  return false;
}

/**
 * Drops from `tally` the ignored folders that hold no file `accept` takes (a `dist/` of a
 * TypeScript project, in a search of Java): they left out nothing of the search's language.
 * Looks into them (bounded), so run only when the tally is shown.
 */
export async function settleIgnoredFolders(
  tally: IgnoreTally,
  accept: (name: string) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  const budget = { left: settleEntryBudget };
  for (const [rule, entry] of tally.byRule) {
    if (entry.folderList.length === 0) continue;
    const kept: IgnoredByRule["folderList"] = [];
    for (const folder of entry.folderList) {
      const held = await holdsAccepted(folder.path, accept, budget, signal);
      if (held === false) continue;
      if (typeof held === "string") folder.file = held;
      kept.push(folder);
    }
    tally.folders -= entry.folderList.length - kept.length;
    entry.folders = kept.length;
    entry.folderList.splice(0, entry.folderList.length, ...kept);
    const first = kept[0];
    if (entry.exampleIsFolder && entry.example !== first?.path) {
      if (first && (entry.firstFile === undefined || first.path < entry.firstFile)) {
        entry.example = first.path;
        entry.namingSearches = first.namingSearches;
      } else if (entry.firstFile !== undefined) {
        entry.example = entry.firstFile;
        entry.exampleIsFolder = false;
        entry.namingSearches = false;
      }
    }
    if (entry.exampleIsFolder) {
      const file = kept.find((folder) => folder.path === entry.example)?.file;
      if (file === undefined) delete entry.fileInExample;
      else entry.fileInExample = file;
    }
    if (entry.files + entry.folders === 0) tally.byRule.delete(rule);
  }
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
 * still honours the workspace's ignore files, as ripgrep and ast-grep read them: `.ignore` of
 * every folder above it, up to the file system's root, in a repository or not; `.gitignore` and
 * `info/exclude` from the root of the nearest git repository holding `root` down to its parent (an
 * agent working in `packages/a` of a repository whose .gitignore names `dist/` does not search
 * `packages/a/dist`; none when `root` is that root, also inside another repository); outside any
 * repository, from `top` (the working directory) down.
 */
export async function outerIgnoreLayers(top: string, searched: string): Promise<IgnoreLayer[]> {
  const root = resolve(searched);
  // The nearest repository holding the folder searched, that folder included: git's ignore files
  // above a repository's root are not its own (a nested project in a dotfiles home).
  const repository = await repositoryRoot(root);
  const start = repository ?? (within(top, root) ? resolve(top) : undefined);
  const chain: string[] = [];
  for (let directory = root; dirname(directory) !== directory;) {
    directory = dirname(directory);
    chain.unshift(directory);
  }
  const layers: IgnoreLayer[] = [];
  for (const dir of chain) {
    const prefix = `${relativePath(dir, root).split(sep).join("/")}/`;
    const kinds = start !== undefined && within(start, dir) ? ignoreFiles : ([".ignore"] as const);
    for (const { rules, source } of await ignoreRules(dir, undefined, kinds))
      layers.push({ base: "", prefix, rules, source });
  }
  return layers;
}

/**
 * The rule that ignores the walk's root itself, or a folder above it, by the `outerLayers` of
 * {@link outerIgnoreLayers} (a walk never judges its root: a folder named is searched even so).
 * The outermost ignored folder's rule; undefined when none is ignored. Only the `levels` nearest
 * the root are judged.
 */
export function rootIgnoredBy(
  outerLayers: readonly IgnoreLayer[],
  /** How many folders to judge, the root and those above it (the ones below the workspace). */
  levels = Infinity,
): IgnoringRule | undefined {
  const segments = outerLayers.map((layer) => (layer.prefix ?? "").replace(/\/$/, "").split("/"));
  const depth = Math.min(levels, Math.max(0, ...segments.map((parts) => parts.length)));
  // From the outermost folder down to the root: `up` folders above the root.
  for (let up = depth - 1; up >= 0; up--) {
    let last: IgnoringRule | undefined;
    outerLayers.forEach((layer, index) => {
      const parts = segments[index] ?? [];
      if (layer.prefix === undefined || parts.length <= up) return;
      const local = parts.slice(0, parts.length - up).join("/");
      for (const rule of layer.rules) if (rule.regex.test(local)) last = { rule, source: layer.source };
    });
    if (last && !last.rule.negate) return last;
  }
  return undefined;
}
