import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
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
