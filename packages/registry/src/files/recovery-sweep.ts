import * as fs from "node:fs/promises";
import { recoverInterruptedWrites } from "./recover-writes.js";
import {
  describeRecovery,
  saveRecoveryReports,
  takeRecoveryReports,
  worthTelling,
  type RecoveryReport,
} from "./recovery-report.js";
import { removeOldLeftovers } from "./old-leftovers.js";
import { journalFolder, journalSuffix, ownFolder } from "./write-journal.js";

/**
 * How often at most `writeFiles` looks for sets that other processes left half written, per
 * workspace: the first call of a process in a workspace always does. One that ends meanwhile has
 * its own reaper roll its set back at once; this sweep is for a reaper that could not (no Node
 * where it ran).
 */
const sweepIntervalMs = 1000;

/**
 * When a writer of each workspace of this process sweeps next (a workspace not in it: at its
 * next write). Per workspace, not per process: a writer of one workspace sweeping does not keep
 * a writer of another, in the same second, from hearing of its own set rolled back.
 */
const nextSweep = new Map<string | undefined, number>();

/** Past this many workspaces, those whose time has come are forgotten (they sweep next anyway). */
const rememberedWorkspaces = 64;

/**
 * Rolls back the sets other processes left half written when they died, before this one reads
 * (at most once a second per workspace of this process), and takes the reports of those rolled
 * back in `workspace` (the writer's): what was done, in words, for the outcome's `warnings`. A
 * set of another workspace is rolled back all the same, and its report saved for a writer there,
 * whose next write in this process takes it (however soon). Kept journals, their notes and
 * untaken reports over a week old are removed first.
 */
export async function sweepInterruptedWrites(workspace: string | undefined): Promise<string[]> {
  const now = Date.now();
  if (now < (nextSweep.get(workspace) ?? 0)) return [];
  if (nextSweep.size >= rememberedWorkspaces)
    for (const [key, due] of nextSweep) if (due <= now) nextSweep.delete(key);
  nextSweep.set(workspace, now + sweepIntervalMs);
  const folder = journalFolder();
  const recovered = await recoverInterruptedWrites({ folder }).catch(() => []);
  // A journal of an earlier version names no workspace: this sweep rolled it back, and tells it.
  const here = recovered.filter((report) => report.workspace === undefined || report.workspace === workspace);
  const elsewhere = recovered.filter((report) => !here.includes(report));
  if (elsewhere.length > 0) {
    await saveRecoveryReports(folder, elsewhere).catch(() => undefined);
    // A writer of theirs in this process takes its report at its next write.
    for (const report of elsewhere) nextSweep.delete(report.workspace);
  }
  const saved = await takeSavedReports(folder, workspace);
  return [...saved, ...here].filter(worthTelling).map(describeRecovery);
}

/**
 * The reports saved in `folder` (a folder of this user's only) of sets written in `workspace`,
 * each taken once, after the leftovers over a week old are removed (a report that old is not told).
 */
async function takeSavedReports(folder: string, workspace: string | undefined): Promise<RecoveryReport[]> {
  try {
    const names = await fs.readdir(folder);
    if (!names.some((name) => !name.endsWith(journalSuffix)) || !(await ownFolder(folder))) return [];
    await removeOldLeftovers(folder, names);
    return await takeRecoveryReports(folder, names, workspace);
  } catch {
    return [];
  }
}
