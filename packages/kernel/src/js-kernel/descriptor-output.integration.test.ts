import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KernelClient } from "../client/kernel-client.js";
import type { KernelOutput } from "../client/kernel-output.js";
import { startKernel } from "../launch/start-kernel.js";

const limits = { maxChars: 2000, maxLines: 50 };

/** A JavaScript kernel for a describe block, and `run` to run a cell in it (its output by kind). */
function javascriptKernel() {
  let kernel: KernelClient | undefined;
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
  return async (code: string) => {
    const outputs: KernelOutput[] = [];
    const outcome = await kernel!.execute(code, { onOutput: (output) => outputs.push(output) });
    const stream = (name: "stdout" | "stderr") =>
      outputs.map((output) => (output.type === "stream" && output.name === name ? output.text : "")).join("");
    const result = outputs
      .map((output) =>
        output.type === "display" && output.kind === "result" ? output.data["text/plain"] : "",
      )
      .join("");
    return { outcome, outputs, stdout: stream("stdout"), stderr: stream("stderr"), result };
  };
}

describe("what a JavaScript cell writes to fd 1 and 2 itself", () => {
  const run = javascriptKernel();
  const folder = mkdtempSync(join(tmpdir(), "tools-fd-child-"));
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
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

  it("keeps them blocking for later cells after a Node child with stdio inherit made them non-blocking", async () => {
    // Opening its process.stdout and stderr sets O_NONBLOCK on the pipes it shares with the
    // executor; Node puts the flags back at exit, but not when killed (nor while it runs).
    const child = await run(
      "try { require('node:child_process').execFileSync(process.execPath, ['-e', \"console.log('child'); console.error('child'); process.kill(process.pid, 'SIGKILL')\"], { stdio: 'inherit' }) } catch (error) { console.log(error.signal) }",
    );
    expect(child.stdout).toContain("SIGKILL\n");
    expect(child.stderr).toBe("child\n");
    const { result } = await run(
      [
        "const fs = require('node:fs')",
        "const modes = [1, 2].map((fd) => (parseInt(/flags:\\s*(\\d+)/.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))[1], 8) & 0o4000) === 0 ? 'blocking' : 'non-blocking')",
        "let short = 0, errors = 0",
        "for (let i = 0; i < 10; i++) { try { if (fs.writeSync(1, Buffer.alloc(4e6, 46)) < 4e6) short++ } catch { errors++ } }",
        "`${modes}; ${short} short, ${errors} failed`",
      ].join("\n"),
    );
    expect(result).toBe("'blocking,blocking; 0 short, 0 failed'");
  });

  it("keeps a cell's fs.writeSync(1, …) whole in the cell that starts a Node child with stdio inherit", async () => {
    // The child makes the shared pipes non-blocking as it opens its stdout: the reset at the start
    // of the next cell came too late for this one, whose 4 MB writes wrote short.
    const up = join(folder, "child-up");
    const child = `process.stdout.write("child up\\n", () => require("fs").writeFileSync(${JSON.stringify(up)}, "")); setTimeout(() => {}, 60000)`;
    const { result, stdout } = await run(
      [
        "const fs = require('node:fs')",
        `const up = ${JSON.stringify(up)}`,
        `const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' })`,
        "for (const deadline = Date.now() + 30000; !fs.existsSync(up) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20))",
        "const { writeSync } = await import('node:fs')",
        "let short = 0, errors = 0",
        "for (const write of [fs.writeSync, fs.writeSync, fs.writeSync, writeSync, writeSync]) { try { if (write(1, Buffer.alloc(4e6, 46)) < 4e6) short++ } catch { errors++ } }",
        "child.kill('SIGKILL');",
        "`${fs.existsSync(up)}; ${short} short, ${errors} failed`",
      ].join("\n"),
    );
    expect(stdout).toContain("child up\n");
    expect(result).toBe("'true; 0 short, 0 failed'");
  });

  it("gives a character split at the end of a cell to that cell, not the next one's start", async () => {
    const { stdout } = await run("require('node:fs').writeSync(1, Buffer.from([0x68, 0x69, 0xe2, 0x82]))");
    expect(stdout).toBe("hi\ufffd");
    const next = await run("require('node:fs').writeSync(1, 'next\\n')");
    expect(next.stdout).toBe("next\n");
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

describe("a JavaScript cell that closes fd 1 and opens a file in its place", () => {
  const run = javascriptKernel();
  const folder = mkdtempSync(join(tmpdir(), "tools-fd-"));
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("gets only its own writes in the file, no cell-end mark, and later cells still end", async () => {
    const file = join(folder, "out.txt");
    const { outcome, result } = await run(
      [
        "const fs = require('node:fs')",
        // A child holding the pipe open: its end does not end the wait for a mark.
        "globalThis.holder = require('node:child_process').spawn('sleep', ['60'], { stdio: 'inherit' })",
        "fs.closeSync(1)",
        `const fd = fs.openSync(${JSON.stringify(file)}, 'w')`,
        "fs.writeSync(1, 'into the file\\n')",
        "fd",
      ].join("\n"),
    );
    expect(outcome.status).toBe("ok");
    expect(result).toBe("1");
    const later = await run("fs.writeSync(1, 'more\\n'); fs.writeSync(2, 'on fd 2\\n'); 'later'");
    expect(later.result).toBe("'later'");
    expect(later.stderr).toBe("on fd 2\n");
    await run("holder.kill()");
    expect(readFileSync(file, "utf8")).toBe("into the file\nmore\n");
  });
});
