import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { hostScope, ownerOf, processGone, threadPrefix } from "../run/host-identity.js";
import { ToolsError, errorMessage } from "../errors/tools-error.js";
import { readRegularFile } from "./read-regular-file.js";
import { readJournalIndex, readJournalRange, type JournalIndex } from "./read-journal.js";
import { wholeSet, type LeftFile, type RecoveryReport } from "./recovery-report.js";
import { journalFolder, ownFolder, journalSuffix, type JournalEntry } from "./write-journal.js";

// Rolling back a change set whose writer died while writing it (SIGKILL, a crash, an exit in the
// middle): every file the set wrote is put back from its journal, every file it created is
// removed, its temporary files and new folders go. A file that holds neither what the set wrote
// nor what was there before was changed by someone else since: it is left as it is, and why is
// recorded. What was done is reported (recovery-report.ts).

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function removeQuietly(path: string): Promise<void> {
  await fs.unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

/** The file's bytes, or null when it is not there. */
async function current(path: string): Promise<Uint8Array | null> {
  return readRegularFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
}

/** Whether `now` is what the entry's set wrote there. */
function writtenBySet(entry: JournalEntry, now: Uint8Array | null): boolean {
  if (entry.wrote === null) return now === null;
  return now !== null && sha256(now) === entry.wrote;
}

/**
 * Puts one file of a set back: `restored`, `untouched` (the set had not changed it), or the
 * reason it is left as it is.
 */
async function rollBack(entry: JournalEntry): Promise<"restored" | "untouched" | { left: string }> {
  await removeQuietly(entry.temp);
  // A single-file set is done once renamed, and not done before: only its temporary file goes.
  if (entry.wrote === undefined) return "untouched";
  const now = await current(entry.target);
  const original = entry.original;
  const untouched =
    original === undefined
      ? !entry.present && now === null
      : now !== null && Buffer.from(original).equals(Buffer.from(now));
  if (untouched) return "untouched";
  if (!writtenBySet(entry, now))
    return {
      left:
        now === null
          ? "deleted by someone else since the set began; left as it is"
          : "holds neither what the set wrote nor what was there before (changed by someone else since the set began); left as it is",
    };
  if (original !== undefined) {
    // Through a temporary file and a rename, as it was written: never half there.
    await fs.writeFile(entry.temp, original, { flag: "wx", mode: entry.mode ?? 0o666 });
    if (entry.mode !== undefined) await fs.chmod(entry.temp, entry.mode).catch(() => undefined);
    try {
      await fs.rename(entry.temp, entry.target);
    } catch (error) {
      await removeQuietly(entry.temp).catch(() => undefined);
      throw error;
    }
  } else if (entry.present) {
    return { left: "could not be read before the set, so there is nothing to put back" };
  } else await removeQuietly(entry.target);
  return "restored";
}

/** The entry `stored` of the journal open as `handle`, with its bytes read. */
async function loadEntry(
  handle: fs.FileHandle,
  index: JournalIndex,
  stored: JournalIndex["entries"][number],
): Promise<JournalEntry> {
  const { original, ...entry } = stored;
  return {
    ...entry,
    ...(original === undefined ? {} : { original: await readJournalRange(handle, index, original) }),
  };
}

/**
 * Rolls back the change set journalled at `path` (its writer is gone) and removes the journal;
 * one whose files were not all put back is kept as `<name>.left`, beside a `<name>.left.txt`
 * that says which and why. A corrupt journal is kept so too, and nothing is rolled back from it.
 * The originals are read one entry at a time. `pid`: the writer's, when the journal does not say.
 */
export async function recoverJournal(path: string, options: { pid?: number } = {}): Promise<RecoveryReport> {
  const handle = await fs.open(path, "r");
  const restored: string[] = [];
  const left: LeftFile[] = [];
  let begunAt: number;
  let index: JournalIndex | undefined;
  let rolledBack = true;
  try {
    begunAt = (await handle.stat()).mtimeMs;
    try {
      index = await readJournalIndex(handle);
    } catch (error) {
      if (!ToolsError.isInstance(error) || error.code !== "JOURNAL_CORRUPT") throw error;
      rolledBack = false;
      left.push({ path: wholeSet, reason: error.message });
    }
    // Cut off while written (no index): no file of the set was touched yet.
    for (const stored of index?.entries ?? []) {
      try {
        const outcome = await rollBack(await loadEntry(handle, index as JournalIndex, stored));
        if (outcome === "restored") restored.push(stored.target);
        else if (outcome !== "untouched") left.push({ path: stored.target, reason: outcome.left });
      } catch (error) {
        left.push({ path: stored.target, reason: `could not be put back: ${errorMessage(error)}` });
      }
    }
  } finally {
    await handle.close();
  }
  // Outermost first in the journal: the deepest go first; one that is not empty stays.
  for (const folder of [...(index?.folders ?? [])].reverse()) await fs.rmdir(folder).catch(() => undefined);
  let kept: string | undefined;
  if (left.length === 0) await removeQuietly(path);
  else kept = await keepJournal(path, left);
  return {
    pid: index?.pid ?? options.pid,
    ...(index?.workspace === undefined ? {} : { workspace: index.workspace }),
    begunAt,
    recoveredAt: Date.now(),
    rolledBack,
    restored,
    left,
    ...(kept === undefined ? {} : { kept }),
  };
}

/**
 * Keeps the journal at `path` of a set whose roll back left files as they are, out of every
 * sweep's way, as `<name>.left` (it holds their bytes from before the set) beside a
 * `<name>.left.txt` that names them and says why. Returns the kept journal's path.
 */
export async function keepJournal(path: string, left: readonly LeftFile[]): Promise<string> {
  const kept = `${path.slice(0, -journalSuffix.length)}.left`;
  const lines = left.map(({ path: file, reason }) => `${file}: ${reason}`);
  await fs.writeFile(
    `${kept}.txt`,
    `A change set was not wholly rolled back; these files were left as they are:\n${lines.join("\n")}\nTheir bytes before the set are in ${kept} (after its first line, at the offsets it gives).\n`,
    { mode: 0o600 },
  );
  await fs.rename(path, kept);
  // Removed a week after it was kept (old-leftovers.ts), not after the set was begun.
  const now = new Date();
  await fs.utimes(kept, now, now).catch(() => undefined);
  return kept;
}

/**
 * The oldest journal of a gone writer that a sweep rolls back, in ms: its reaper rolls a set
 * back within seconds of the writer's end; one found later than this is kept for a human.
 */
export const maxRollBackAgeMs = 10 * 60_000;

/**
 * A journal's scope and age, read before it is claimed, from its header only; undefined when it
 * is not a journal of this user's. A corrupt one is taken for one of this scope: claimed, it is
 * kept for a human with the reason, and nothing is rolled back from it.
 */
async function foundJournal(
  path: string,
): Promise<{ host: string; workspace: string | undefined; mtimeMs: number } | undefined> {
  try {
    const info = await fs.lstat(path);
    const uid = process.getuid?.();
    if (!info.isFile() || (uid !== undefined && info.uid !== uid)) return undefined;
    const handle = await fs.open(path, "r");
    try {
      const index = await readJournalIndex(handle).catch((error: unknown) => {
        if (ToolsError.isInstance(error) && error.code === "JOURNAL_CORRUPT") return undefined;
        throw error;
      });
      // Cut off while written: rolled back as an empty set (its temporary files named nothing yet).
      return { host: index?.host ?? hostScope(), workspace: index?.workspace, mtimeMs: info.mtimeMs };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Rolls back every change set whose writer ended while writing it: the journals of processes
 * that are gone (by id and start time), and with `owner` (a thread prefix, `<pid>-<start>-<thread>-`)
 * those of that thread, which the caller knows ended. Each journal is first claimed by a rename,
 * so two recoveries never work on one set. Run by `writeFiles` before each set and by the
 * reaper when its host ends.
 */
export async function recoverInterruptedWrites(
  options: { folder?: string; owner?: string; now?: number } = {},
): Promise<RecoveryReport[]> {
  const folder = options.folder ?? journalFolder();
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return []; // No journal written yet.
  }
  const reports: RecoveryReport[] = [];
  let checked = false;
  for (const name of names) {
    if (!name.endsWith(journalSuffix)) continue;
    const owner = ownerOf(name);
    if (owner === undefined) continue;
    const own = owner.prefix === options.owner;
    if (!own && !processGone(owner.pid, owner.start)) continue;
    // Only journals of a folder of this user's that no one else can write to are acted on:
    // checked again on every sweep (the folder may have been removed and made by another since).
    if (!checked) {
      if (!(await ownFolder(folder))) return reports;
      checked = true;
    }
    const path = join(folder, name);
    if (!own) {
      // Its writer's id means something only in this boot and pid namespace (another container
      // sharing the folder may be writing it now): a journal of elsewhere is left to its own.
      const found = await foundJournal(path);
      if (found === undefined || found.host !== hostScope()) continue;
      // Found late (its reaper could not run, and no process of this user wrote since), the
      // files may have been reviewed and kept meanwhile: it is kept for a human, not rolled back.
      const now = options.now ?? Date.now();
      if (now - found.mtimeMs > maxRollBackAgeMs) {
        const left = [
          {
            path: wholeSet,
            reason: `its writer ended over ${maxRollBackAgeMs / 60_000} minutes before this sweep found it, so it was not rolled back; the files may hold part of the set`,
          },
        ];
        const kept = await keepJournal(path, left).catch(() => undefined);
        if (kept !== undefined) {
          reports.push({
            pid: owner.pid,
            ...(found.workspace === undefined ? {} : { workspace: found.workspace }),
            begunAt: found.mtimeMs,
            recoveredAt: now,
            rolledBack: false,
            restored: [],
            left,
            kept,
          });
        }
        continue;
      }
    }
    const claimed = join(folder, `${threadPrefix()}${randomBytes(6).toString("hex")}${journalSuffix}`);
    try {
      await fs.rename(join(folder, name), claimed);
    } catch {
      continue; // Claimed by another recovery.
    }
    // A journal that cannot be read now stays claimed: this thread's reaper, or a sweep once
    // this process is gone, tries it again.
    const report = await recoverJournal(claimed, { pid: owner.pid }).catch(() => undefined);
    if (report !== undefined) reports.push(report);
  }
  return reports;
}
