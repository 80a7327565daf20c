import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KernelError } from "../kernel-error.js";
import { ci, pythonFound, systemPython } from "../__fixtures__/workspace.js";
import { startKernel } from "./start-kernel.js";

describe.skipIf(!pythonFound && !ci)("starting a python kernel", () => {
  it("bounds the helper cell: one not done in time fails the start and leaves no kernel", async () => {
    expect(pythonFound).toBe(true);
    const directory = mkdtempSync(join(tmpdir(), "kernel-start-"));
    const before = new Set(readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)));
    try {
      // A real ipykernel cannot install its helpers in 1 ms: the bound is what ends the wait.
      const start = startKernel({
        language: "python",
        cwd: directory,
        pythonPath: systemPython,
        shellTool: "shell",
        readyTimeoutMs: 30_000,
        setupTimeoutMs: 1,
      });
      const error = await start.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(KernelError.isInstance(error) && error.code).toBe("KERNEL_START_FAILED");
      expect(String((error as Error).message)).toContain(
        "started but its helpers could not be installed: Error: the setup cell did not finish within 1 ms",
      );
      // The kernel started for it was ended (its process group killed).
      const kernels = readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry) && !before.has(entry))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ipykernel_launcher");
          } catch {
            return false;
          }
        });
      expect(kernels).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
