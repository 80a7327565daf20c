import { readdirSync } from "node:fs";
import { extname, join } from "node:path";
import { readTextFile } from "../files/file-texts.js";
import { wholeColumns } from "../positions/resolve-position.js";
import { skippedFolders } from "../servers/project-folders.js";
import { clipAround } from "../format/locations.js";
import { splitLines } from "../positions/line-ends.js";

/** One line outside the renaming server's root that names the old name. */
export interface Mention {
  readonly file: string;
  /** 0-based. */
  readonly line: number;
  readonly text: string;
}

/** What {@link mentionsElsewhere} found, and how far it looked. */
export interface MentionsElsewhere {
  readonly mentions: readonly Mention[];
  /** Files with at least one mention (`mentions` lists at most `limits.lines` lines). */
  readonly files: number;
  /** All the lines found, listed or not. */
  readonly lines: number;
  /** Set when the bound on folders or files read stopped the walk. */
  readonly truncated: boolean;
}

/** Bounds of {@link mentionsElsewhere}. */
export interface MentionLimits {
  readonly folders: number;
  readonly filesRead: number;
  readonly lines: number;
  /** Larger files are not read. */
  readonly bytes: number;
  /** The longest the look takes, in milliseconds (it yields to the event loop as it goes). */
  readonly ms: number;
}

export const defaultMentionLimits: MentionLimits = {
  folders: 2_000,
  filesRead: 2_000,
  lines: 10,
  bytes: 1_000_000,
  ms: 2_000,
};

/** Files or folders read between two turns of the event loop. */
const readsPerTurn = 50;

/**
 * After a rename by the server of `root`: the files of the language (`extensions`) in the
 * working directory that another root's server serves, or none (`rootOf` says which root a
 * folder's files belong to), and that name `name` as a whole identifier. A server sees only its
 * own root: a package of a monorepo importing the renamed symbol from another is not renamed
 * with it. Hidden folders and those no project keeps sources in (node_modules, build output)
 * are skipped; `exclude` (the files the rename changed) too. Depth first, in name order. Stops
 * (as truncated) at its bounds, or when `signal` aborts.
 */
export async function mentionsElsewhere(
  workingDirectory: string,
  root: string,
  rootOf: (folder: string) => string | undefined,
  options: {
    name: string;
    extensions: readonly string[];
    exclude: ReadonlySet<string>;
    limits?: Partial<MentionLimits>;
    signal?: AbortSignal;
  },
): Promise<MentionsElsewhere> {
  const given = options.limits ?? {};
  const limits: MentionLimits = {
    folders: given.folders ?? defaultMentionLimits.folders,
    filesRead: given.filesRead ?? defaultMentionLimits.filesRead,
    lines: given.lines ?? defaultMentionLimits.lines,
    bytes: given.bytes ?? defaultMentionLimits.bytes,
    ms: given.ms ?? defaultMentionLimits.ms,
  };
  const deadline = performance.now() + limits.ms;
  const mentions: Mention[] = [];
  let files = 0;
  let lines = 0;
  let folders = 0;
  let read = 0;
  let truncated = false;
  let sinceTurn = 0;
  /**
   * Whether one more read may be made, `used` of `limit` made so far: false (truncated) past the
   * limit, the time bound or a cancel. Every {@link readsPerTurn} reads it lets the event loop run.
   */
  const mayRead = async (used: number, limit: number): Promise<boolean> => {
    if (used >= limit) truncated = true;
    if (truncated) return false;
    if (++sinceTurn < readsPerTurn) return true;
    sinceTurn = 0;
    await new Promise((resolve) => setImmediate(resolve));
    if (performance.now() >= deadline || options.signal?.aborted) truncated = true;
    return !truncated;
  };
  const visit = async (folder: string): Promise<void> => {
    if (!(await mayRead(folders, limits.folders))) return;
    folders += 1;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    const outside = rootOf(folder) !== root;
    for (const entry of entries) {
      if (truncated) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !skippedFolders.has(entry.name)) await visit(path);
        continue;
      }
      if (!outside || !entry.isFile() || options.exclude.has(path)) continue;
      if (!options.extensions.includes(extname(entry.name).toLowerCase())) continue;
      if (!(await mayRead(read, limits.filesRead))) return;
      read += 1;
      const found = mentionsIn(path, options.name, limits.bytes);
      if (found.length === 0) continue;
      files += 1;
      lines += found.length;
      for (const mention of found) if (mentions.length < limits.lines) mentions.push(mention);
    }
  };
  if (options.signal?.aborted) return { mentions, files, lines, truncated: true };
  await visit(workingDirectory);
  return { mentions, files, lines, truncated };
}

/** The lines of `file` naming `name` as a whole identifier; none when unreadable or too large. */
export function mentionsIn(file: string, name: string, bytes: number): Mention[] {
  let text: string;
  try {
    text = readTextFile(file, bytes);
  } catch {
    return [];
  }
  if (!text.includes(name)) return [];
  const found: Mention[] = [];
  const lines = splitLines(text);
  for (let line = 0; line < lines.length; line++) {
    const content = lines[line]!;
    const columns = content.includes(name) ? wholeColumns(content, name) : [];
    // A minified line is shown around the name, not whole.
    if (columns.length > 0) found.push({ file, line, text: clipAround(content, columns[0]!) });
  }
  return found;
}

/**
 * The lines of `files` naming `name` as a whole identifier, as {@link mentionsElsewhere} counts
 * them (at most `limits.lines` listed; files over `limits.bytes` not read).
 */
export function mentionsInFiles(
  files: readonly string[],
  name: string,
  limits: Pick<MentionLimits, "lines" | "bytes"> = defaultMentionLimits,
): MentionsElsewhere {
  const mentions: Mention[] = [];
  let withMentions = 0;
  let lines = 0;
  for (const file of files) {
    const found = mentionsIn(file, name, limits.bytes);
    if (found.length === 0) continue;
    withMentions += 1;
    lines += found.length;
    for (const mention of found) if (mentions.length < limits.lines) mentions.push(mention);
  }
  return { mentions, files: withMentions, lines, truncated: false };
}
