import { spawn } from "node:child_process";
import type * as fs from "node:fs";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor } from "../testing/processes.js";
import { createProcessMark, lookForMark, markedProcesses } from "./process-mark.js";

// Counts the /proc reads of one look through the real /proc: readFileSync is wrapped, not faked.
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return { ...actual, readFileSync: vi.fn(actual.readFileSync) };
});

const onLinux = process.platform === "linux";
const stopAfter: (() => void)[] = [];
afterEach(() => {
  for (const stop of stopAfter.splice(0)) stop();
});

describe("one look through /proc for a mark", () => {
  it.skipIf(!onLinux)(
    "reads the start time only of a carrier and of a process whose environment is empty, not of every process",
    async () => {
      const mark = createProcessMark();
      const carrier = spawn("/bin/sleep", ["300"], { env: { ...process.env, ...mark.env }, stdio: "ignore" });
      stopAfter.push(() => carrier.kill("SIGKILL"));
      expect(await waitFor(() => markedProcesses(mark.value).length === 1, 10_000)).toBe(true);

      const read = vi.mocked(readFileSync);
      read.mockClear();
      const found = markedProcesses(mark.value);
      expect(found.map((process) => process.pid)).toEqual([carrier.pid]);
      const calls = read.mock.calls.map((call, index) => ({
        file: String(call[0]),
        result: read.mock.results[index],
      }));
      const environments = calls.filter((call) => call.file.endsWith("/environ"));
      // Empty, or refused for a kernel thread or a zombie (ESRCH on some kernels).
      const emptyEnvironments = environments.filter(
        (call) =>
          call.result?.type === "throw" || (call.result?.type === "return" && call.result.value === ""),
      ).length;
      const startTimes = calls.filter((call) => call.file.endsWith("/stat")).length;
      // Two for the carrier (around its environment's second reading), one per empty environment.
      expect(startTimes).toBeLessThanOrEqual(emptyEnvironments + 2);
      expect(environments.length).toBeGreaterThan(startTimes);
    },
  );

  it.skipIf(!onLinux)("settles over kernel threads and a zombie met by an earlier look", async () => {
    // `sleep 300` never reaps the `true` its shell started before the exec: a zombie for 300 s.
    const parent = spawn("/bin/sh", ["-c", "/bin/true & exec /bin/sleep 300"], { stdio: "ignore" });
    stopAfter.push(() => parent.kill("SIGKILL"));
    const zombieOfParent = () =>
      readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, "utf8")
        .split(" ")
        .filter((pid) => pid !== "")
        .some((pid) => {
          try {
            return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") === true;
          } catch {
            return false;
          }
        });
    expect(await waitFor(zombieOfParent, 10_000)).toBe(true);
    const kernelThreads = readFileSync("/proc/2/stat", "utf8") !== "";
    expect(kernelThreads).toBe(true);

    // The first look meets the zombie (and any other) first: unsettled. A later one settles,
    // unless a process of the busy machine ended during it: looks until one settles, bounded.
    const zombies = new Set<string>();
    expect(lookForMark("no-process-carries-this", zombies).unsettled).toBe(true);
    const settled = await waitFor(() => !lookForMark("no-process-carries-this", zombies).unsettled, 10_000);
    expect(settled).toBe(true);
  });
});
