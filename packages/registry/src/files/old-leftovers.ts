import * as fs from "node:fs/promises";
import { join } from "node:path";
import { savedReportSuffix, unsavedReportSuffix } from "./recovery-report.js";

// What recovery leaves in the journal folder for a human or for the next writer — a kept journal
// (`<name>.left`) and its note (`<name>.left.txt`), a saved report no writer took, one a reaper
// died saving — goes after a week: the folder must not grow for ever on a machine that stays up.

/** How long a kept journal, its note or an untaken report stays after it was last written: 7 days. */
export const leftoverMaxAgeMs = 7 * 24 * 60 * 60_000;

const leftoverSuffixes = [".left", ".left.txt", savedReportSuffix, unsavedReportSuffix];

/**
 * Removes from the journal folder `folder` (whose entries are `names`; the caller checked it is
 * the user's own) the leftovers of recovery last written over {@link leftoverMaxAgeMs} before
 * `now`: regular files of this user's only. Journals are never removed here.
 */
export async function removeOldLeftovers(
  folder: string,
  names: readonly string[],
  now = Date.now(),
): Promise<void> {
  const uid = process.getuid?.();
  for (const name of names) {
    if (!leftoverSuffixes.some((suffix) => name.endsWith(suffix))) continue;
    const path = join(folder, name);
    const info = await fs.lstat(path).catch(() => undefined);
    if (info === undefined || !info.isFile() || (uid !== undefined && info.uid !== uid)) continue;
    if (now - info.mtimeMs > leftoverMaxAgeMs) await fs.unlink(path).catch(() => undefined);
  }
}
