import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { hostScope, ownerOf, processGone, threadPrefix } from "../run/host-identity.js";
import { errorMessage } from "../errors/tools-error.js";
import { readRegularFile } from "./read-regular-file.js";
import { journalFolder, ownFolder, journalSuffix, parseJournal, type JournalEntry } from "./write-journal.js";

// Rolling back a change set whose writer died while writing it (SIGKILL, a crash, an exit in the
// middle): every file the set wrote is put back from its journal, every file it created is
// removed, its temporary files and new folders go. A file that holds neither what the set wrote
// nor what was there before was changed by someone else since: it is left as it is, and why is
// recorded.

/** A file a roll back did not touch. */
export interface LeftFile {
  /** How the writer named it. */
  readonly label: string;
  readonly reason: string;
}

/** What rolling back one journal did. */
export interface RecoveryReport {
  /** The files put back as they were before the set (or removed, when the set created them). */
  readonly restored: readonly string[];
  /** The files left as they are; their journal is kept as `<name>.left` with a `.txt` report. */
  readonly left: readonly LeftFile[];
}

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
  const written = entry.wrote === null ? now === null : now !== null && sha256(now) === entry.wrote;
  if (!written)
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

/**
 * Rolls back the change set journalled at `path` (its writer is gone) and removes the journal;
 * one whose files were not all put back is kept as `<name>.left`, beside a `<name>.left.txt`
 * that says which and why.
 */
export async function recoverJournal(path: string): Promise<RecoveryReport> {
  const journal = parseJournal(await fs.readFile(path));
  const restored: string[] = [];
  const left: LeftFile[] = [];
  // Cut off while written: no file of the set was touched yet.
  for (const entry of journal?.entries ?? []) {
    try {
      const outcome = await rollBack(entry);
      if (outcome === "restored") restored.push(entry.label);
      else if (outcome !== "untouched") left.push({ label: entry.label, reason: outcome.left });
    } catch (error) {
      left.push({ label: entry.label, reason: `could not be put back: ${errorMessage(error)}` });
    }
  }
  // Outermost first in the journal: the deepest go first; one that is not empty stays.
  for (const folder of [...(journal?.folders ?? [])].reverse()) await fs.rmdir(folder).catch(() => undefined);
  if (left.length === 0) await removeQuietly(path);
  else await keepJournal(path, left);
  return { restored, left };
}

/**
 * Keeps the journal at `path` of a set whose roll back left files as they are, out of every
 * sweep's way, as `<name>.left` (it holds their bytes from before the set) beside a
 * `<name>.left.txt` that names them and says why.
 */
export async function keepJournal(path: string, left: readonly LeftFile[]): Promise<void> {
  const kept = `${path.slice(0, -journalSuffix.length)}.left`;
  const lines = left.map(({ label, reason }) => `${label}: ${reason}`);
  await fs.writeFile(
    `${kept}.txt`,
    `A change set was rolled back; these files were left as they are:\n${lines.join("\n")}\nTheir bytes before the set are in ${kept} (after its first line, at the offsets it gives).\n`,
    { mode: 0o600 },
  );
  await fs.rename(path, kept);
}

/**
 * The oldest journal of a gone writer that a sweep rolls back, in ms: its reaper rolls a set
 * back within seconds of the writer's end; one found later than this is kept for a human.
 */
export const maxRollBackAgeMs = 10 * 60_000;

/** A journal's scope and age, read before it is claimed; undefined when it is not a journal of this user's. */
async function foundJournal(path: string): Promise<{ host: string; mtimeMs: number } | undefined> {
  try {
    const info = await fs.lstat(path);
    const uid = process.getuid?.();
    if (!info.isFile() || (uid !== undefined && info.uid !== uid)) return undefined;
    const journal = parseJournal(await fs.readFile(path));
    // Cut off while written: rolled back as an empty set (its temporary files named nothing yet).
    return { host: journal?.host ?? hostScope(), mtimeMs: info.mtimeMs };
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
      if ((options.now ?? Date.now()) - found.mtimeMs > maxRollBackAgeMs) {
        await keepJournal(path, [
          {
            label: "(the whole set)",
            reason: `its writer ended over ${maxRollBackAgeMs / 60_000} minutes before this sweep found it, so it was not rolled back; the files may hold part of the set`,
          },
        ]).catch(() => undefined);
        continue;
      }
    }
    const claimed = join(folder, `${threadPrefix()}${randomBytes(6).toString("hex")}${journalSuffix}`);
    try {
      await fs.rename(join(folder, name), claimed);
    } catch {
      continue; // Claimed by another recovery.
    }
    reports.push(await recoverJournal(claimed));
  }
  return reports;
}
