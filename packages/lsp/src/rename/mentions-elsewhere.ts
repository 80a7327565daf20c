import { readdirSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { readTextFile } from "../files/file-texts.js";
import { wholeColumns } from "../positions/whole-occurrences.js";
import { skippedFolders } from "../servers/project-folders.js";
import { clipAround } from "../format/locations.js";
import { splitLines } from "../positions/line-ends.js";
import { codeOnly } from "../actions/code-only.js";
import { importsNameTest } from "./imports-name.js";

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
 * (as truncated) at its bounds, or when `signal` aborts. Given `language` (the server table's),
 * a line naming it only in comments or strings is no mention (see `codeOnly`), and the files that
 * import it by name (see `importsNameTest`) are listed first. A file read before for the same
 * name and language is read again only when its `stat` changed (see {@link cachedMentionsIn}).
 */
export async function mentionsElsewhere(
  workingDirectory: string,
  root: string,
  rootOf: (folder: string) => string | undefined,
  options: {
    name: string;
    extensions: readonly string[];
    exclude: ReadonlySet<string>;
    language?: string;
    limits?: Partial<MentionLimits>;
    signal?: AbortSignal;
    /** Whether to look below a folder; every folder when not given. */
    enter?: (folder: string) => boolean;
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
  // Listed first: a file importing the name uses the symbol more surely than one naming it.
  const importing: Mention[] = [];
  const imports = options.language ? importsNameTest(options.language, options.name) : undefined;
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
        if (
          !entry.name.startsWith(".") &&
          !skippedFolders.has(entry.name) &&
          (options.enter === undefined || options.enter(path))
        )
          await visit(path);
        continue;
      }
      if (!outside || !entry.isFile() || options.exclude.has(path)) continue;
      if (!options.extensions.includes(extname(entry.name).toLowerCase())) continue;
      if (!(await mayRead(read, limits.filesRead))) return;
      read += 1;
      const found = cachedMentionsIn(path, options.name, limits.bytes, options.language, imports);
      if (found.mentions.length === 0) continue;
      files += 1;
      lines += found.mentions.length;
      const into = found.imports ? importing : mentions;
      for (const mention of found.mentions) if (into.length < limits.lines) into.push(mention);
    }
  };
  if (options.signal?.aborted) return { mentions, files, lines, truncated: true };
  await visit(workingDirectory);
  return { mentions: [...importing, ...mentions].slice(0, limits.lines), files, lines, truncated };
}

/** What {@link mentionsIn} found in one file. */
type FileMentions = ReturnType<typeof mentionsIn>;

/** Names (with language and size bound) whose files' mentions are kept; the oldest goes first. */
const namesKept = 16;
/** Files kept per name: past it, the name's record starts again. */
const filesKept = 20_000;
/** Per name, language and size bound: per file, what it held at the `stat` it was read at. */
const readBefore = new Map<string, Map<string, { stamp: string; found: FileMentions }>>();

/**
 * {@link mentionsIn}, read again only when the file's `stat` (modification and change times in
 * nanoseconds, size, inode) is not the one it was last read at for the same name: a look that
 * runs on every references call does one `stat` per unchanged file, not a read.
 */
function cachedMentionsIn(
  file: string,
  name: string,
  bytes: number,
  language: string | undefined,
  imports: ((text: string) => boolean) | undefined,
): FileMentions {
  let stamp: string;
  try {
    const stat = statSync(file, { bigint: true });
    stamp = `${stat.mtimeNs}:${stat.ctimeNs}:${stat.size}:${stat.ino}`;
  } catch {
    return { mentions: [], imports: false };
  }
  const key = `${name}\0${language ?? ""}\0${bytes}`;
  let files = readBefore.get(key);
  if (files) readBefore.delete(key);
  if (!files || files.size >= filesKept) files = new Map();
  readBefore.set(key, files);
  if (readBefore.size > namesKept) readBefore.delete(readBefore.keys().next().value!);
  const kept = files.get(file);
  if (kept?.stamp === stamp) return kept.found;
  const found = mentionsIn(file, name, bytes, language, imports);
  files.set(file, { stamp, found });
  return found;
}

/**
 * The lines of `file` naming `name` as a whole identifier (given `language`, in code: see
 * `codeOnly`), and whether `imports` passes its text; none when unreadable or too large.
 */
export function mentionsIn(
  file: string,
  name: string,
  bytes: number,
  language?: string,
  imports?: (text: string) => boolean,
): { mentions: Mention[]; imports: boolean } {
  let text: string;
  try {
    text = readTextFile(file, bytes);
  } catch {
    return { mentions: [], imports: false };
  }
  if (!text.includes(name)) return { mentions: [], imports: false };
  const found: Mention[] = [];
  const lines = splitLines(text);
  for (let line = 0; line < lines.length; line++) {
    const content = lines[line]!;
    let columns = content.includes(name) ? wholeColumns(content, name) : [];
    if (language !== undefined && columns.length > 0) {
      const code = codeOnly(content, language);
      columns = columns.filter((column) => code[column] !== " ");
    }
    // A minified line is shown around the name, not whole.
    if (columns.length > 0) found.push({ file, line, text: clipAround(content, columns[0]!) });
  }
  return { mentions: found, imports: found.length > 0 && imports !== undefined && imports(text) };
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
    const found = mentionsIn(file, name, limits.bytes).mentions;
    if (found.length === 0) continue;
    withMentions += 1;
    lines += found.length;
    for (const mention of found) if (mentions.length < limits.lines) mentions.push(mention);
  }
  return { mentions, files: withMentions, lines, truncated: false };
}
