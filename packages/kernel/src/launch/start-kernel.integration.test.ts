import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KernelError } from "../kernel-error.js";
import { ci, pythonFound, systemPython } from "../__fixtures__/workspace.js";
import type { KernelClient } from "../client/kernel-client.js";
import type { KernelOutput } from "../client/kernel-output.js";
import { startKernel } from "./start-kernel.js";

const python = {
  language: "python",
  cwd: process.cwd(),
  pythonPath: "/usr/bin/python3",
  shellTool: "shell",
  readyTimeoutMs: 30_000,
} as const;

describe("python kernel over ipc", () => {
  let kernel: KernelClient | undefined;
  afterAll(async () => {
    await kernel?.dispose();
  });

  it("starts, runs a cell and echoes the last expression", async () => {
    kernel = await startKernel(python);
    const outputs: KernelOutput[] = [];
    const outcome = await kernel.execute("print('hi')\n1+1", { onOutput: (o) => outputs.push(o) });
    expect(outcome.status).toBe("ok");
    expect(outputs).toEqual([
      { type: "stream", name: "stdout", text: "hi\n" },
      { type: "display", kind: "result", data: { "text/plain": "2" } },
    ]);
    const dir = kernel.directory;
    await kernel.dispose();
    expect(existsSync(dir)).toBe(false);
  });

  it("answers a bridged call in the first cell after start: stdin is linked before ready", async () => {
    // The kernel's stdin ROUTER drops an input_request sent before our DEALER's handshake, and
    // each socket retries its connection on its own 100–200 ms timer, so stdin could link after
    // shell answered kernel_info. The cell's tool() call then waited forever for a reply to a
    // request we never saw. Several starts, because the race is a matter of timing.
    for (let start = 0; start < 6; start++) {
      const fresh = await startKernel(python);
      try {
        const outputs: KernelOutput[] = [];
        const prompts: string[] = [];
        const outcome = fresh.execute("print(tool('name'))", {
          onOutput: (o) => outputs.push(o),
          onInputRequest: async (prompt) => {
            prompts.push(prompt);
            return JSON.stringify({ ok: true, text: "ada" });
          },
        });
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<"no bridge request">((resolve) => {
          timer = setTimeout(() => resolve("no bridge request"), 10_000);
        });
        const ended = await Promise.race([outcome.then((o) => o.status), bound]);
        clearTimeout(timer);
        expect(ended, `start ${start + 1}`).toBe("ok");
        expect(prompts).toHaveLength(1);
        expect(prompts[0]).toContain('"tool": "name"');
        expect(outputs).toContainEqual({ type: "stream", name: "stdout", text: "ada\n" });
      } finally {
        await fresh.dispose();
      }
    }
  });
});

describe.skipIf(!pythonFound && !ci)("a python kernel that goes idle without answering", () => {
  it("ends the cell with KERNEL_NO_REPLY and keeps the kernel and its state", async () => {
    expect(pythonFound).toBe(true);
    const fresh = await startKernel(python);
    try {
      expect((await fresh.execute("kept = 41")).status).toBe("ok");
      // ipykernel's compile() raises on a NUL inside its handler: no execute_reply, then idle.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<"still waiting">((resolve) => {
        timer = setTimeout(() => resolve("still waiting"), 20_000);
      });
      const ended = await Promise.race([
        fresh.execute("x = 'a\u0000b'").then(
          (outcome) => outcome.status,
          (error: unknown) => error,
        ),
        bound,
      ]);
      clearTimeout(timer);
      expect(KernelError.isInstance(ended) && ended.code).toBe("KERNEL_NO_REPLY");
      expect(String((ended as Error).message)).toMatch(/went idle without answering .* state .* are kept/);
      const outputs: KernelOutput[] = [];
      expect(fresh.exited).toBeUndefined();
      expect((await fresh.execute("kept + 1", { onOutput: (o) => outputs.push(o) })).status).toBe("ok");
      expect(outputs).toEqual([{ type: "display", kind: "result", data: { "text/plain": "42" } }]);
    } finally {
      await fresh.dispose();
    }
  });
});

/** The children of this process whose command line names ipykernel (kernels this file started). */
function ownKernels(): string[] {
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return (
        ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ipykernel_launcher")
      );
    } catch {
      return false;
    }
  });
}

describe.skipIf(!pythonFound && !ci)("starting a python kernel", () => {
  it("bounds the helper cell: one not done in time fails the start and leaves no kernel", async () => {
    expect(pythonFound).toBe(true);
    const directory = mkdtempSync(join(tmpdir(), "kernel-start-"));
    try {
      // A real ipykernel cannot install its helpers in 1 ms: the bound is what ends the wait.
      const error = await startKernel({
        language: "python",
        cwd: directory,
        pythonPath: systemPython,
        shellTool: "shell",
        readyTimeoutMs: 30_000,
        setupTimeoutMs: 1,
      }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(KernelError.isInstance(error) && error.code).toBe("KERNEL_START_FAILED");
      expect(String((error as Error).message)).toContain(
        "started but its helpers could not be installed: Error: the setup cell did not finish within 1 ms",
      );
      // The kernel started for it was ended (its process group killed).
      expect(ownKernels()).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
