import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { defineTool } from "../tool/define-tool.js";
import { resultText } from "../result/tool-result.js";
import { tempDir } from "../testing/fixture-tools.js";
import { dead, sessionOf, waitFor } from "../testing/processes.js";
import { createRun } from "./run.js";
import { resourceKey, stateKey } from "./resource-key.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  if (existsSync("/proc/self/stat")) return waitFor(() => dead(pid), timeoutMs);
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const check = () => {
      if (!alive(pid)) resolve(true);
      else if (Date.now() > deadline) resolve(false);
      else setTimeout(check, 20);
    };
    check();
  });
}

describe("run lifecycle", () => {
  it("stores the real path of its working directory and rejects a missing one", () => {
    const dir = tempDir();
    expect(createRun({ workingDirectory: `${dir}/.` }).workingDirectory).toBe(dir);
    expect(() => createRun({ workingDirectory: `${dir}/missing` })).toThrow(/not an existing directory/);
  });

  it("ends its child processes, including their process group, on dispose", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    const child = spawn("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const grandchildPid = await new Promise<number>((resolve) => {
      child.stdout.once("data", (data: Buffer) => resolve(Number(data.toString().trim())));
    });
    run.ownProcess(child, { group: true, label: "sleeper" });
    expect(alive(child.pid!)).toBe(true);
    expect(alive(grandchildPid)).toBe(true);
    const report = await run.dispose();
    expect(report).toEqual({ completed: 1, failed: [] });
    expect(await waitForExit(child.pid!, 2000)).toBe(true);
    expect(await waitForExit(grandchildPid, 2000)).toBe(true);
  });

  it("ends a descendant that left the process group for a session of its own (setsid)", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    const child = spawn("/bin/sh", ["-c", "setsid sleep 300 & echo $!; wait"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const escaped = await new Promise<number>((resolve) => {
      child.stdout.once("data", (data: Buffer) => resolve(Number(data.toString().trim())));
    });
    // In a session and group of its own, out of reach of a signal to the child's group.
    expect(await waitFor(() => sessionOf(escaped) === escaped, 2000)).toBe(true);
    run.ownProcess(child, { group: true, label: "sleeper" });
    await run.dispose();
    expect(await waitForExit(escaped, 2000)).toBe(true);
  });

  it("kills a process that ignores SIGTERM after the grace period", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    const child = spawn(
      process.execPath,
      ["-e", "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"],
      {
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    await new Promise((resolve) => child.stdout.once("data", resolve));
    run.ownProcess(child, { graceMs: 200 });
    await run.dispose();
    expect(child.signalCode).toBe("SIGKILL");
  });

  it("is idempotent, aborts its signal, and ends resources newest first", async () => {
    const order: string[] = [];
    const key = resourceKey<{ dispose(): void }>("thing");
    const run = createRun({
      workingDirectory: tempDir(),
      resources: [[key, { dispose: () => void order.push("wired resource") }]],
    });
    run.own(() => void order.push("owned later"), "later");
    const first = run.dispose();
    const second = run.dispose();
    expect(first).toBe(second);
    expect(run.signal.aborted).toBe(true);
    await first;
    expect(order).toEqual(["owned later", "wired resource"]);
    expect(() => run.wire(key, { dispose: () => undefined })).toThrow(/has ended/);
  });

  it("is bounded in time: a cleanup that hangs is reported, not waited for", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    run.own(() => new Promise<void>(() => undefined), "hanging cleanup");
    run.own(() => {
      throw new Error("cleanup failed");
    }, "failing cleanup");
    const report = await run.dispose({ timeoutMs: 100 });
    expect(report.completed).toBe(0);
    expect(report.failed).toEqual([
      "failing cleanup: failed: cleanup failed",
      "hanging cleanup: still running after the dispose deadline",
    ]);
  });

  it("keeps per-run state apart between runs", () => {
    const ledger = stateKey("ledger", () => new Set<string>());
    const a = createRun({ workingDirectory: tempDir() });
    const b = createRun({ workingDirectory: tempDir() });
    a.state(ledger).add("x");
    expect(a.state(ledger).has("x")).toBe(true);
    expect(b.state(ledger).has("x")).toBe(false);
  });

  it("disposes when the harness's signal aborts, and cancels a call in flight", async () => {
    const controller = new AbortController();
    const run = createRun({ workingDirectory: tempDir(), signal: controller.signal });
    const waits = defineTool({
      name: "waits",
      tier: "read",
      description: "Waits for the signal.",
      parallelSafe: true,
      input: z.object({}),
      execute: (_input, context) =>
        new Promise<string>((_resolve, reject) => {
          context.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
          context.progress("waiting");
        }),
    });
    const registry = createRegistry({ tools: [waits] });
    const progress: string[] = [];
    registry.on((event) => {
      if (event.type === "call-progress") {
        progress.push(event.message);
        controller.abort();
      }
    });
    const result = await registry.invoke(run, { tool: "waits", args: {} });
    expect(progress).toEqual(["waiting"]);
    expect(result.error?.code).toBe("RUN_DISPOSED");
    expect(resultText(result)).toBe("waits was stopped: the run has ended");
    expect(run.disposed).toBe(true);
  });
});

describe("run ownership can be taken back", () => {
  it("does not run a cleanup that was disowned", async () => {
    const run = createRun({ workingDirectory: tempDir() });
    const ran: string[] = [];
    const disown = run.own(() => void ran.push("disowned"), "disowned");
    run.own(() => void ran.push("kept"), "kept");
    disown();
    disown();
    const report = await run.dispose();
    expect(ran).toEqual(["kept"]);
    expect(report.completed).toBe(1);
  });
});
