import { createHash } from "node:crypto";
import { basename, dirname, join, resolve } from "node:path";
import { errorMessage } from "../errors/tools-error.js";
import { countNoun } from "../result/bounded-output.js";
import { startReaper } from "../run/process-mark.js";
import { nodeFileOperations, type FileOperations } from "./file-operations.js";
import { keepJournal } from "./recover-writes.js";
import { sweepInterruptedWrites } from "./recovery-sweep.js";
import { temporaryName } from "./temporary-name.js";
import { currentWorkspace, removeJournal, writeJournal, type JournalEntry } from "./write-journal.js";

/** What a file must hold for a change set to be written. */
export type ExpectedContent =
  /** Exactly this text (as UTF-8) or these bytes. */
  | string
  | Uint8Array
  /** Bytes with this sha256 (hex). */
  | { readonly sha256: string }
  /** The file must not exist. */
  | null;

/** One file of a change set written all or nothing by {@link writeFiles}. */
export interface FileChange {
  /** Absolute path. A symlink is written through to the file it points at. */
  readonly path: string;
  /** How the file is named in the outcome (a path relative to the working directory); default `path`. */
  readonly label?: string;
  /** What the file must hold now; undefined for no check. */
  readonly expected?: ExpectedContent;
  /** The new content, or null to delete the file. */
  readonly content: string | Uint8Array | null;
}

/** A file that no longer holds what the change set expected. */
export interface MovedFile {
  readonly path: string;
  readonly label: string;
  /** `changed`, `deleted` (or unreadable), or `created` (expected absent, now there). */
  readonly reason: "changed" | "deleted" | "created";
}

/**
 * What {@link writeFiles} did. Any outcome may carry `warnings`, which the caller should show:
 * what this call found and did before writing (a change set another process left half written
 * when it died, rolled back: "rolled back a change set that process 4242 left half written when
 * it ended (begun …, rolled back …): restored 2 files: /w/a.txt, /w/b.txt; …"), and a written
 * file that had other hard links ("/w/a.txt had 1 other hard link; the edit gave it its own copy,
 * and the other names keep the old text"). Absent when there is none.
 */
export type WriteOutcome =
  /** Every change was written; `changed` lists the paths written or deleted, in the given order. */
  (
    | { readonly ok: true; readonly changed: readonly string[] }
    /** Nothing was written: these files moved since the change was computed. */
    | { readonly ok: false; readonly moved: readonly MovedFile[] }
    /**
     * A write failed: `failed` names the file and `reason` why; the files already written were
     * put back, except `notRestored` (labels).
     */
    | {
        readonly ok: false;
        readonly moved?: undefined;
        readonly failed: string;
        readonly reason: string;
        readonly cause: unknown;
        readonly restored: number;
        readonly notRestored: readonly string[];
      }
  ) & { readonly warnings?: readonly string[] };

/**
 * An outcome's `warnings` as lines to end a tool's answer or error message with, each
 * `\nnote: …` ("" for none): one wording for every tool that writes through {@link writeFiles}.
 */
export function warningNotes(warnings: readonly string[] | undefined): string {
  return (warnings ?? []).map((warning) => `\nnote: ${warning}`).join("");
}

interface Before {
  readonly change: FileChange;
  readonly label: string;
  /** The path written: the symlink's target for a symlink. */
  readonly target: string;
  /**
   * The bytes before the write, or undefined when the file did not exist, could not be read, or
   * was not read (a lone unchecked change, which nothing compares or puts back).
   */
  readonly original: Uint8Array | undefined;
  /** Whether the file was there before the write. */
  readonly present: boolean;
  /** The mode before the write (kept by the new file), or undefined when nothing was there. */
  readonly mode: number | undefined;
  /** How many other names (hard links) the file had: a write gives it its own copy, apart from them. */
  readonly otherLinks: number;
  /** The temporary file the new content (or, on a roll back, the original) is written to. */
  readonly temp: string;
}

function sameContent(bytes: Uint8Array | undefined, expected: ExpectedContent): boolean {
  if (expected === null) return bytes === undefined;
  if (bytes === undefined) return false;
  if (typeof expected === "string") return Buffer.from(expected, "utf8").equals(bytes);
  if (expected instanceof Uint8Array) return Buffer.from(expected).equals(bytes);
  return createHash("sha256").update(bytes).digest("hex") === expected.sha256;
}

async function readBefore(
  ops: FileOperations,
  change: FileChange,
  alone: boolean,
): Promise<Before | MovedFile> {
  const label = change.label ?? change.path;
  const target = await realTarget(ops, change.path);
  // The mode is read apart from the bytes: a file that cannot be read still keeps its mode.
  const info = await ops.stat(target).catch(() => undefined);
  const mode = info === undefined ? undefined : info.mode & 0o7777;
  // The rename parts a file from its other names (they keep the old text), which the outcome
  // says. It is never rewritten in place: a write cut off there leaves it half written, and the
  // change reaches every name, also one in a store other projects share (pnpm's node_modules).
  const otherLinks = info !== undefined && info.isFile() ? Math.max(0, info.nlink - 1) : 0;
  // A lone change without a check is neither compared nor put back: a large file is not read.
  const original =
    alone && change.expected === undefined ? undefined : await ops.readFile(target).catch(() => undefined);
  // A file that is there but cannot be read is there: "must not exist" does not hold for it.
  const present = mode !== undefined || original !== undefined;
  if (
    change.expected === null
      ? present
      : change.expected !== undefined && !sameContent(original, change.expected)
  ) {
    const reason = change.expected === null ? "created" : original === undefined ? "deleted" : "changed";
    return { path: change.path, label, reason };
  }
  const temp = join(dirname(target), temporaryName(basename(target)));
  return { change, label, target, original, present, mode, otherLinks, temp };
}

/**
 * The file a path names in the end: its real path, or, for a file not there yet, its name in the
 * real path of its folder (so that two spellings of one new file are seen to be one).
 */
async function realTarget(ops: FileOperations, path: string): Promise<string> {
  try {
    return await ops.realpath(path);
  } catch {
    return ops.realpath(dirname(path)).then(
      (folder) => join(folder, basename(path)),
      // A folder the set creates: the absolute path, which the journal needs (recovery refuses a
      // relative one, which would resolve against the recovering process's folder).
      () => resolve(path),
    );
  }
}

/**
 * Creates the missing folders above `path`, adding each to `created` (outermost first) as soon as
 * it is made: when a deeper one fails, the caller still removes those already made.
 */
async function makeParents(ops: FileOperations, path: string, created: string[]): Promise<void> {
  const missing: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    // A file in the way counts as missing: its mkdir then fails naming it (EEXIST), rather than
    // the temporary file's open failing under it (ENOTDIR).
    const exists = await ops.stat(folder).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (exists || dirname(folder) === folder) break;
    missing.unshift(folder);
  }
  for (const folder of missing) {
    await ops.mkdir(folder);
    created.push(folder);
  }
}

/** A checked file that another writer changed between its first read and its write. */
class MovedMeanwhile extends Error {
  constructor(readonly moved: MovedFile) {
    super(`${moved.label} was ${moved.reason} by another writer while the set was written`);
  }
}

/**
 * For a change with an `expected` content: throws {@link MovedMeanwhile} when the file no longer
 * holds what was read at the start (another writer saved it since). Run right before the file is
 * replaced or deleted, so that the window in which such a save is lost shrinks from the whole
 * set's writing to one read and a rename.
 */
async function checkUnchanged(ops: FileOperations, before: Before): Promise<void> {
  if (before.change.expected === undefined) return;
  const moved = (reason: MovedFile["reason"]) =>
    new MovedMeanwhile({ path: before.change.path, label: before.label, reason });
  // With an expected content, what `readBefore` let through was readable, or not there at all.
  if (before.original === undefined) {
    const there = await ops.stat(before.target).then(
      () => true,
      () => false,
    );
    if (there) throw moved("created");
    return;
  }
  const now = await ops.readFile(before.target).catch(() => undefined);
  if (now === undefined) throw moved("deleted");
  if (Buffer.compare(Buffer.from(now), Buffer.from(before.original)) !== 0) throw moved("changed");
}

/** Writes through a temporary file in the same folder and a rename: readers see old or new, never half. */
async function replaceFile(
  ops: FileOperations,
  path: string,
  temporary: string,
  data: string | Uint8Array,
  mode: number | undefined,
  beforeRename: () => Promise<void> = async () => undefined,
): Promise<void> {
  try {
    await ops.writeFile(temporary, data, { mode });
    await beforeRename();
    await ops.rename(temporary, path);
  } catch (error) {
    await ops.unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Puts one file back as it was (rewritten, or removed if it did not exist). */
async function restore(ops: FileOperations, before: Before): Promise<void> {
  // Through the temporary file the journal names (free again after its rename).
  if (before.original) await replaceFile(ops, before.target, before.temp, before.original, before.mode);
  // There but unreadable before the write: nothing to put back, and removing it would lose it.
  else if (before.mode !== undefined) throw new Error("it could not be read before the write");
  else
    await ops.unlink(before.target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
}

/**
 * The folders above `targets` that are not there yet, outermost first (each once): a roll back
 * after a crash removes those the set created.
 */
async function missingFolders(ops: FileOperations, targets: readonly string[]): Promise<string[]> {
  const missing = new Set<string>();
  for (const target of targets) {
    const chain: string[] = [];
    for (
      let folder = dirname(target);
      dirname(folder) !== folder && !missing.has(folder);
      folder = dirname(folder)
    ) {
      const exists = await ops.stat(folder).then(
        (info) => info.isDirectory(),
        () => false,
      );
      if (exists) break;
      chain.unshift(folder);
    }
    for (const folder of chain) missing.add(folder);
  }
  return [...missing];
}

/**
 * Writes the journal of a set about to be written (see write-journal.ts), and makes sure this
 * thread's reaper runs, to roll the set back if this process dies before it is done. A single
 * file is done with its one rename: only its temporary file is recorded. Undefined when no
 * journal could be written.
 */
async function journalFor(
  ops: FileOperations,
  ordered: readonly Before[],
  workspace: string | undefined,
): Promise<string | undefined> {
  const whole = ordered.length > 1;
  const entries: JournalEntry[] = ordered.map((before) => {
    const { content } = before.change;
    const entry = { target: before.target, label: before.label, temp: before.temp };
    if (!whole) return entry;
    const wrote = content === null ? null : createHash("sha256").update(content).digest("hex");
    return { ...entry, wrote, present: before.present, mode: before.mode, original: before.original };
  });
  const created = ordered.filter((before) => before.change.content !== null && !before.present);
  const folders = await missingFolders(
    ops,
    created.map((before) => before.target),
  );
  const journal = await writeJournal(entries, folders, workspace);
  if (journal !== undefined) startReaper();
  return journal;
}

/**
 * Writes a set of file changes all or nothing. Every file is read first: one that no longer
 * holds its `expected` content rejects the whole set before anything is written (`moved`). A
 * checked file is read again right before it is replaced or deleted: one another writer saved
 * meanwhile is not overwritten, the files already written are put back, and the outcome is
 * `moved` too.
 * Then each file is written through a temporary file and a rename, keeping an existing file's
 * mode and creating missing folders; a file with other hard links (nlink > 1) gets its own copy
 * that way (its other names keep the old text), which the outcome's `warnings` say; deletions
 * come after every write. If any step fails, the files already changed are put back
 * from the bytes just read, created files and folders are removed, and the outcome says which
 * file failed and whether everything was restored. Sets other processes left half written when
 * they died are rolled back first, and said so in the outcome's `warnings` when they were
 * written in this writer's workspace (`options.workspace`, default the process's working folder;
 * another's are told to a writer there).
 */
export async function writeFiles(
  changes: readonly FileChange[],
  ops: FileOperations = nodeFileOperations,
  options: WriteFilesOptions = {},
): Promise<WriteOutcome> {
  // Absolute, as a journal must name it (a relative one would make the journal unreadable).
  const workspace = options.workspace === undefined ? currentWorkspace() : resolve(options.workspace);
  // A set another process left half written when it died is rolled back before this one reads.
  const warnings = await sweepInterruptedWrites(workspace);
  const outcome = await writeSet(changes, ops, workspace);
  const all = [...warnings, ...(outcome.warnings ?? [])];
  return all.length === 0 ? outcome : { ...outcome, warnings: all };
}

/** Options of {@link writeFiles}. */
export interface WriteFilesOptions {
  /**
   * The workspace the set is written for (a run's working directory), as its journal names it:
   * if this process dies while writing, the report of the set's roll back is told to the next
   * writer of that workspace only. Default: the process's working folder.
   */
  workspace?: string;
}

/** {@link writeFiles} after the sweep. */
async function writeSet(
  changes: readonly FileChange[],
  ops: FileOperations,
  workspace: string | undefined,
): Promise<WriteOutcome> {
  const befores: Before[] = [];
  const moved: MovedFile[] = [];
  for (const change of changes) {
    const before = await readBefore(ops, change, changes.length === 1);
    if ("reason" in before) moved.push(before);
    else befores.push(before);
  }
  if (moved.length > 0) return { ok: false, moved };
  // Two changes of one file (a symlink and its target, two spellings of a path) would overwrite
  // each other, and the second one's check would take the first one's write for another writer's.
  // Two hard links of one file are two names: each write gives its name a file of its own.
  const byTarget = new Map<string, Before>();
  for (const before of befores) {
    const first = byTarget.get(before.target);
    if (first === undefined) {
      byTarget.set(before.target, before);
      continue;
    }
    const reason = `${before.label} is the same file as ${first.label} (through a symlink or another spelling of its path); give each file once`;
    return {
      ok: false,
      failed: before.label,
      reason,
      cause: new Error(reason),
      restored: 0,
      notRestored: [],
    };
  }

  const ordered = [
    ...befores.filter((before) => before.change.content !== null),
    ...befores.filter((before) => before.change.content === null),
  ];
  const journal = await journalFor(ops, ordered, workspace);
  const done: Before[] = [];
  const createdFolders: string[] = [];
  for (const before of ordered) {
    const { content } = before.change;
    try {
      if (content === null) {
        await checkUnchanged(ops, before);
        if (before.present) await ops.unlink(before.target);
      } else {
        await makeParents(ops, before.target, createdFolders);
        await replaceFile(ops, before.target, before.temp, content, before.mode, () =>
          checkUnchanged(ops, before),
        );
      }
      done.push(before);
    } catch (error) {
      const notRestored: Before[] = [];
      // A file with other hard links put back through a rename holds its old text, apart from them.
      const parted: string[] = [];
      for (const written of done.reverse()) {
        await restore(ops, written).then(
          () => {
            if (written.change.content !== null && written.otherLinks > 0)
              parted.push(`${partedLinks(written)}; putting it back gave it its own copy with its old text`);
          },
          () => notRestored.push(written),
        );
      }
      const notes = parted.length === 0 ? {} : { warnings: parted.reverse() };
      for (const folder of createdFolders.reverse()) await ops.rmdir(folder).catch(() => undefined);
      if (notRestored.length === 0) removeJournal(journal);
      else if (journal !== undefined) {
        const reason = `could not be put back after ${before.label} failed: ${errorMessage(error)}`;
        await keepJournal(
          journal,
          notRestored.map((file) => ({ path: file.target, reason })),
        ).catch(() => undefined);
      }
      // Saved by another writer meanwhile: with everything put back, nothing was written.
      if (error instanceof MovedMeanwhile && notRestored.length === 0)
        return { ok: false, moved: [error.moved], ...notes };
      return {
        ok: false,
        failed: before.label,
        reason: errorMessage(error),
        cause: error,
        restored: done.length - notRestored.length,
        notRestored: notRestored.map((file) => file.label),
        ...notes,
      };
    }
  }
  removeJournal(journal);
  const changed = befores.filter((before) => before.change.content !== null || before.present);
  const parted = ordered.filter((before) => before.change.content !== null && before.otherLinks > 0);
  return {
    ok: true,
    changed: changed.map((before) => before.change.path),
    ...(parted.length === 0 ? {} : { warnings: parted.map(partedWarning) }),
  };
}

/** "/w/a.txt had 2 other hard links". */
function partedLinks(before: Before): string {
  return `${before.change.path} had ${before.otherLinks} other hard ${countNoun(before.otherLinks, "links")}`;
}

/** What a write did to a file with other hard links: it has its own copy now, apart from them. */
function partedWarning(before: Before): string {
  return `${partedLinks(before)}; the edit gave it its own copy, and the other names keep the old text`;
}
