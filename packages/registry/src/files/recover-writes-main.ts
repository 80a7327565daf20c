import { recoverInterruptedWrites } from "./recover-writes.js";
import { saveRecoveryReports } from "./recovery-report.js";

// Run by a process reaper when its host ended (see process-mark.ts):
// `node recover-writes-main.js <journal folder> <host thread prefix>`. What it rolled back is
// saved beside the journals, for the next `writeFiles` to tell (see recovery-report.ts).

const [folder, owner] = process.argv.slice(2);
try {
  const reports = await recoverInterruptedWrites({ folder, owner });
  if (folder !== undefined) await saveRecoveryReports(folder, reports);
} catch {
  process.exitCode = 1; // What is left is rolled back by the next write's sweep.
}
