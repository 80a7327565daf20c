import { recoverInterruptedWrites } from "./recover-writes.js";

// Run by a process reaper when its host ended (see process-mark.ts):
// `node recover-writes-main.js <journal folder> <host thread prefix>`.

const [folder, owner] = process.argv.slice(2);
try {
  await recoverInterruptedWrites({ folder, owner });
} catch {
  process.exitCode = 1; // What is left is rolled back by the next write's sweep.
}
