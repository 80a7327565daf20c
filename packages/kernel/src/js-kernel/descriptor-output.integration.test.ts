import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KernelClient } from "../client/kernel-client.js";
import type { KernelOutput } from "../client/kernel-output.js";
import { startKernel } from "../launch/start-kernel.js";

const limits = { maxChars: 2000, maxLines: 50 };

describe("what a JavaScript cell writes to fd 1 and 2 itself", () => {
  let kernel: KernelClient | undefined;
  const run = async (code: string) => {
    const outputs: KernelOutput[] = [];
    const outcome = await kernel!.execute(code, { onOutput: (output) => outputs.push(output) });
    const stream = (name: "stdout" | "stderr") =>
      outputs.map((output) => (output.type === "stream" && output.name === name ? output.text : "")).join("");
    return { outcome, outputs, stdout: stream("stdout"), stderr: stream("stderr") };
  };

  beforeAll(async () => {
    kernel = await startKernel({
      language: "javascript",
      cwd: process.cwd(),
      shellTool: "shell",
      readyTimeoutMs: 30_000,
      outputLimits: limits,
    });
  });
  afterAll(async () => {
    await kernel?.dispose();
  });

  it("is the cell's output: fs.writeSync(1, …), process.stderr.fd, a child process with stdio inherit", async () => {
    const { outcome, stdout, stderr } = await run(
      [
        "const fs = require('node:fs')",
        "fs.writeSync(1, 'one\\n')",
        "fs.writeSync(process.stderr.fd, 'two\\n')",
        "require('node:child_process').execSync('echo three; echo four >&2', { stdio: 'inherit' })",
        "fs.writeSync(process.stdout.fd, 'five\\n')",
      ].join("\n"),
    );
    expect(outcome.status).toBe("ok");
    expect(stdout).toBe("one\nthree\nfive\n");
    expect(stderr).toBe("two\nfour\n");
    // Nothing of it is left over for the next cell.
    const next = await run("40 + 2");
    expect(next.outputs).toEqual([{ type: "display", kind: "result", data: { "text/plain": "42" } }]);
  });

  it("written just before the cell ends is that cell's, not the next one's", async () => {
    // More than one read of the pipe each time: the end of it comes after the cell's done message.
    for (let i = 0; i < 10; i++) {
      const { stdout } = await run(
        `require('node:fs').writeSync(1, 'x'.repeat(150000) + '\\nend of cell ${i}\\n')`,
      );
      expect(stdout.startsWith("xxxx")).toBe(true);
      expect(stdout.endsWith(`x\nend of cell ${i}\n`)).toBe(true);
      expect(stdout).not.toContain(`end of cell ${i - 1}`);
    }
  });

  it("keeps fd 1 and 2 blocking for the cell and its children (opening process.stdout made them non-blocking)", async () => {
    // O_NONBLOCK (0o4000) on a shared pipe: a child writing faster than the kernel reads got EAGAIN.
    const { stdout } = await run(
      "for (const fd of [1, 2]) console.log(fd, (parseInt(/flags:\\s*(\\d+)/.exec(require('fs').readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))[1], 8) & 0o4000) === 0 ? 'blocking' : 'non-blocking')",
    );
    expect(stdout).toBe("1 blocking\n2 blocking\n");
  });

  it("runs a child printing megabytes to its end, bounded as console output is", async () => {
    const { outcome, outputs, stdout } = await run(
      "require('node:child_process').execSync('seq 1 300000', { stdio: 'inherit' })\n'done'",
    );
    expect(outcome.status).toBe("ok");
    expect(outputs.filter((output) => output.type === "error")).toEqual([]);
    expect(stdout).toMatch(/^1\n2\n3\n/);
    expect(stdout).toMatch(/\n299999\n300000\n$/);
    expect(stdout.length).toBeLessThanOrEqual(limits.maxChars * 3);
    let printed = 0;
    for (let i = 1; i <= 300_000; i++) printed += `${i}\n`.length;
    const omitted = outputs.filter((output) => output.type === "omitted");
    expect(omitted.reduce((sum, output) => sum + output.chars, 0)).toBe(printed - stdout.length);
    expect(outputs).toContainEqual({ type: "display", kind: "result", data: { "text/plain": "'done'" } });
  });
});
