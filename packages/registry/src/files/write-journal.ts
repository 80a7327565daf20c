import { randomBytes } from "node:crypto";
import { unlinkSync, writeFileSync } from "node:fs";
import * as fs from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { hostScope, threadPrefix } from "../run/host-identity.js";

// The journal of a change set `writeFiles` is writing: enough to roll it back when the writing
// process dies before the set is done (see recover-writes.ts). One file per set, written before
// the first file of the set is touched and removed once the set is written (or put back).
//
// Layout: one line of JSON (the header, {@link JournalHeader}), then the bytes of the originals
// one after the other, each found by its offset and length in the header. Read back by read-journal.ts.

/** How a journal's name ends; a journal being recovered or left for a human ends otherwise. */
export const journalSuffix = ".journal";

/** One file of a journalled change set. */
export interface JournalEntry {
  /** The file written (a symlink's target). */
  readonly target: string;
  /** How the caller named it. */
  readonly label: string;
  /** The temporary file written beside it (and, on a roll back, the one its original goes through). */
  readonly temp: string;
  /**
   * What the set puts there: the sha256 (hex) of the new content, or null for a deletion.
   * Absent for a single-file set, which is never rolled back (its one rename is the commit).
   */
  readonly wrote?: string | null;
  /** Whether the file was there before the set (multi-file sets). */
  readonly present?: boolean;
  /** Its mode before the set, kept when it is put back. */
  readonly mode?: number;
  /** Its bytes before the set (multi-file sets); undefined when it was absent or unreadable. */
  readonly original?: Uint8Array;
}

/** Where some bytes are among those after the header line: offset and length. */
export type DataRange = readonly [offset: number, length: number];

/** A journal entry as its header stores it: its bytes as ranges of the data after the header. */
export type StoredEntry = Omit<JournalEntry, "original"> & { readonly original?: DataRange };

/** The first line of a journal. */
export interface JournalHeader {
  readonly version: 1;
  /** The boot and pid namespace of the writer (see {@link hostScope}). */
  readonly host?: string;
  /** The writer's process id (absent in journals of earlier versions). */
  readonly pid?: number;
  /**
   * The writer's working folder (see {@link currentWorkspace}): the report of the set's roll back
   * is told only to a writer working there (absent in journals of earlier versions).
   */
  readonly workspace?: string;
  /** Folders missing before the set, outermost first: created by it, removed on a roll back. */
  readonly folders: readonly string[];
  readonly entries: readonly StoredEntry[];
  /** How many bytes follow the header line: a shorter journal was cut off while written. */
  readonly dataLength: number;
}

/**
 * The folder holding this user's journals: `tools-write-journal-<uid>` in the system's
 * temporary folder. Outside every workspace (no stray files in a repository or under a watcher),
 * one per user (0700, so no one else can plant a journal that recovery would act on).
 */
export function journalFolder(): string {
  const user = process.getuid?.() ?? userInfo().username;
  return join(tmpdir(), `tools-write-journal-${user}`);
}

/**
 * The workspace a writer works in, as journals and recovery reports name it: the process's
 * working folder; undefined when it cannot be read (it was removed). A report of a roll back is
 * told only to a writer of the workspace whose set it rolled back: a session in another project
 * of the same user is not told of files it never wrote, and the session that should hear is.
 */
export function currentWorkspace(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** Up to this size a journal is written synchronously. */
const smallJournalBytes = 64 * 1024;

/**
 * Makes the journal folder (0700) when it is missing, and checks that it is a folder of this
 * user's that no one else may write to. Undefined when it is not (nothing is journalled then).
 * Checked every time, never remembered: a cleaner of old temporary files may remove the folder,
 * and another user make one of the same name (then neither our journals go there nor are its
 * journals acted on).
 */
export async function ensureJournalFolder(folder = journalFolder()): Promise<string | undefined> {
  try {
    await fs.mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    return (await ownFolder(folder)) ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** True when `folder` is a real folder (not a link) of this user's that no one else may write to. */
export async function ownFolder(folder: string): Promise<boolean> {
  const info = await fs.lstat(folder).catch(() => undefined);
  const uid = process.getuid?.();
  if (info === undefined || !info.isDirectory() || (uid !== undefined && info.uid !== uid)) return false;
  return (info.mode & 0o022) === 0;
}

/**
 * Writes the journal of a change set before its first file is touched; returns its path, or
 * undefined when no journal could be written (the set is written without one, as before
 * journals). Not synced to disk: it guards against the process dying, not the machine.
 */
export async function writeJournal(
  entries: readonly JournalEntry[],
  folders: readonly string[],
  workspace: string | undefined,
): Promise<string | undefined> {
  const data: Uint8Array[] = [];
  let offset = 0;
  const store = (bytes: Uint8Array | undefined): DataRange | undefined => {
    if (bytes === undefined) return undefined;
    data.push(bytes);
    offset += bytes.byteLength;
    return [offset - bytes.byteLength, bytes.byteLength];
  };
  const header: JournalHeader = {
    version: 1,
    host: hostScope(),
    pid: process.pid,
    workspace,
    folders,
    entries: entries.map(({ original, ...entry }): StoredEntry => {
      const originalRange = store(original);
      return { ...entry, ...(originalRange === undefined ? {} : { original: originalRange }) };
    }),
    dataLength: 0,
  };
  const line = Buffer.from(`${JSON.stringify({ ...header, dataLength: offset })}\n`);
  // Twice at most: a folder removed since it was made (a cleaner of old temporary files) is
  // made again.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const folder = await ensureJournalFolder();
    if (folder === undefined) return undefined;
    const path = join(folder, `${threadPrefix()}${randomBytes(6).toString("hex")}${journalSuffix}`);
    try {
      // A small journal (every single file's, most sets') is written at once: a few dozen
      // microseconds, where three trips through the thread pool would cost more than the write.
      if (line.byteLength + offset <= smallJournalBytes)
        writeFileSync(path, Buffer.concat([line, ...data]), { flag: "wx", mode: 0o600 });
      else {
        const handle = await fs.open(path, "wx", 0o600);
        try {
          const { bytesWritten } = await handle.writev([line, ...data]);
          if (bytesWritten !== line.byteLength + offset) throw new Error("short write");
        } finally {
          await handle.close();
        }
      }
      return path;
    } catch (error) {
      await fs.unlink(path).catch(() => undefined);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    }
  }
  return undefined;
}

/** Removes a journal once its set is written or put back. */
export function removeJournal(path: string | undefined): void {
  if (path === undefined) return;
  try {
    unlinkSync(path);
  } catch {
    // Gone already, with its folder (a cleaner of old temporary files).
  }
}
