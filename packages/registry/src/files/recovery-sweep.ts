import * as fs from "node:fs/promises";
import { recoverInterruptedWrites } from "./recover-writes.js";
import {
  describeRecovery,
  takeRecoveryReports,
  worthTelling,
  type RecoveryReport,
} from "./recovery-report.js";
import { removeOldLeftovers } from "./old-leftovers.js";
import { journalFolder, journalSuffix, ownFolder } from "./write-journal.js";

/**
 * How often at most `writeFiles` looks for sets that other processes left half written: the
 * first call of a process always does. One that ends meanwhile has its own reaper roll its set
 * back at once; this sweep is for a reaper that could not (no Node where it ran).
 */
const sweepIntervalMs = 1000;
let nextSweep = 0;

/**
 * Rolls back the sets other processes left half written when they died, before this one reads
 * (at most once a second per process), and takes the reports of those their reapers rolled
 * back: what was done, in words, for the outcome's `warnings`. Kept journals, their notes and
 * untaken reports over a week old are removed first.
 */
export async function sweepInterruptedWrites(): Promise<string[]> {
  if (Date.now() < nextSweep) return [];
  nextSweep = Date.now() + sweepIntervalMs;
  const folder = journalFolder();
  const recovered = await recoverInterruptedWrites({ folder }).catch(() => []);
  const saved = await takeSavedReports(folder);
  return [...saved, ...recovered].filter(worthTelling).map(describeRecovery);
}

/**
 * The reports reapers saved in `folder` (a folder of this user's only), each taken once, after
 * the leftovers over a week old are removed (a report that old is not told).
 */
async function takeSavedReports(folder: string): Promise<RecoveryReport[]> {
  try {
    const names = await fs.readdir(folder);
    if (!names.some((name) => !name.endsWith(journalSuffix)) || !(await ownFolder(folder))) return [];
    await removeOldLeftovers(folder, names);
    return await takeRecoveryReports(folder, names);
  } catch {
    return [];
  }
}
