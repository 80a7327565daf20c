import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { KernelClient } from "../client/kernel-client.js";
import type { KernelOutput } from "../client/kernel-output.js";
import { startKernel } from "./start-kernel.js";

describe("python kernel over ipc", () => {
  let kernel: KernelClient | undefined;
  afterAll(async () => {
    await kernel?.dispose();
  });

  it("starts, runs a cell and echoes the last expression", async () => {
    kernel = await startKernel({
      language: "python",
      cwd: process.cwd(),
      pythonPath: "/usr/bin/python3",
      shellTool: "shell",
      readyTimeoutMs: 30_000,
    });
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
});
