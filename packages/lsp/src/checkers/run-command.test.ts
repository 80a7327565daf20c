import type { ChildProcess } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processStat, signalProcesses, type ProcessIdentity } from "@tools/registry";
import { LspSupervisor } from "../supervisor/supervisor.js";
import { running } from "../test-support/fixtures.js";
import { runCommand } from "./run-command.js";

/**
 * The daemon whose pid the test's script writes to `pidFile`, as the process it is (pid and start
 * time), taken as soon as written (looked for every 10 ms, 5 s at most), while it surely runs:
 * undefined when it never was. The test's clean-up kills only that process, never another that
 * got its pid after it ended, and kills it whatever the test's assertions did (taken after the
 * run's, a daemon out of the group's reach was left running when one failed).
 */
async function daemonIn(pidFile: string): Promise<ProcessIdentity | undefined> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
    let text = "";
    try {
      text = readFileSync(pidFile, "utf8");
    } catch {
      // not written yet
    }
    if (/^\d+\n$/.test(text)) {
      const pid = Number(text);
      const start = processStat(pid)?.start;
      return start === undefined ? undefined : { pid, start };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** Whether `daemon` still runs (the same process: its pid not given to another since). */
function stillRuns(daemon: ProcessIdentity): boolean {
  return running(daemon.pid) && processStat(daemon.pid)?.start === daemon.start;
}

/** Whether a process (or, with a negative pid, any process of a group) is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("runCommand", () => {
  it("resolves with the output and the exit code, whatever the code", async () => {
    const output = await runCommand("sh", ["-c", "echo out; echo err >&2; exit 3"], {
      cwd: process.cwd(),
      signal: new AbortController().signal,
      timeoutMs: 10_000,
    });
    expect(output).toEqual({ stdout: "out\n", stderr: "err\n", exitCode: 3 });
  });

  it("rejects a command that does not exist", async () => {
    await expect(
      runCommand("no-such-checker-here", [], {
        cwd: process.cwd(),
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      }),
    ).rejects.toThrow(/ENOENT/);
  });

  it("ends the whole process group at the timeout, children included, and lets the owner go", async () => {
    const owned = new Set<ChildProcess>();
    let group = 0;
    // The shell starts a grandchild and waits on it: killing only the shell would leave it.
    const running = runCommand("sh", ["-c", "sleep 30 & wait"], {
      cwd: process.cwd(),
      signal: new AbortController().signal,
      timeoutMs: 300,
      own: (child) => {
        owned.add(child);
        group = child.pid ?? 0;
        return () => owned.delete(child);
      },
    });
    await expect(running).rejects.toThrow(/stopped \(still running at its 300 ms bound\)/);
    expect(group).toBeGreaterThan(0);
    await vi.waitFor(() => expect(alive(-group)).toBe(false), { timeout: 5_000 });
    await vi.waitFor(() => expect(owned.size).toBe(0));
  });

  it("ends at the timeout a daemon that left the group holding its output, by its process mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lsp-run-"));
    const pidFile = join(dir, "daemon.pid");
    const daemon = daemonIn(pidFile);
    try {
      // The daemon (its own session, its parent gone: a double fork, which the init process
      // adopts, so it is not found among the checker's descendants) would keep stdout open long
      // after the checker is gone; it carries the checker's mark, so it ends with it.
      const script = `(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 60' &); while [ ! -s ${pidFile} ]; do sleep 0.01; done; sleep 60`;
      const run = runCommand("sh", ["-c", script], {
        cwd: dir,
        signal: new AbortController().signal,
        timeoutMs: 1_500,
        name: "checker",
      });
      await expect(run).rejects.toThrow(/^checker was stopped \(still running at its 1\.5 s bound\)$/);
      const found = await daemon;
      expect(found, "the daemon was seen").toBeDefined();
      await expect.poll(() => stillRuns(found!), { timeout: 3_000 }).toBe(false);
    } finally {
      const found = await daemon;
      if (found) signalProcesses([found], "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends its wait at the timeout even when a process that dropped its environment holds its output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lsp-run-"));
    const pidFile = join(dir, "daemon.pid");
    const daemon = daemonIn(pidFile);
    try {
      // As above, but `env -i` drops the mark too: out of reach, the wait still ends at the bound.
      const script = `(setsid env -i /bin/sh -c 'echo $$ > ${pidFile}; exec sleep 60' &); while [ ! -s ${pidFile} ]; do sleep 0.01; done; sleep 60`;
      const run = runCommand("sh", ["-c", script], {
        cwd: dir,
        signal: new AbortController().signal,
        timeoutMs: 1_500,
        name: "checker",
      });
      await expect(run).rejects.toThrow(
        "checker was stopped (still running at its 1.5 s bound); a process it started still held its output",
      );
      const found = await daemon;
      expect(
        found !== undefined && stillRuns(found),
        "the daemon that dropped its environment still runs",
      ).toBe(true);
    } finally {
      const found = await daemon;
      if (found) signalProcesses([found], "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends the group when cancelled", async () => {
    const controller = new AbortController();
    let group = 0;
    const running = runCommand("sh", ["-c", "sleep 30 & wait"], {
      cwd: process.cwd(),
      signal: controller.signal,
      timeoutMs: 60_000,
      own: (child) => {
        group = child.pid ?? 0;
        return () => undefined;
      },
    });
    setTimeout(() => controller.abort(), 100);
    await expect(running).rejects.toThrow(/stopped \(cancelled\)/);
    await vi.waitFor(() => expect(alive(-group)).toBe(false), { timeout: 5_000 });
  });

  it("is ended with the run: the supervisor's dispose kills a checker still running", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lsp-checker-"));
    const supervisor = new LspSupervisor(dir);
    let group = 0;
    const running = runCommand("sh", ["-c", "sleep 30 & wait"], {
      cwd: dir,
      signal: new AbortController().signal,
      timeoutMs: 60_000,
      own: (child) => {
        group = child.pid ?? 0;
        return supervisor.ownProcess(child);
      },
    });
    running.catch(() => undefined);
    await vi.waitFor(() => expect(group).toBeGreaterThan(0));
    await supervisor.dispose();
    await expect(running).rejects.toThrow(/killed by SIGTERM|stopped/);
    await vi.waitFor(() => expect(alive(-group)).toBe(false), { timeout: 5_000 });
    rmSync(dir, { recursive: true, force: true });
  });
});
