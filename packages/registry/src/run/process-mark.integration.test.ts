import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../testing/fixture-tools.js";
import { reaperModules, transpileModules } from "../testing/transpiled-modules.js";
import { dead, sessionOf, waitFor } from "../testing/processes.js";
import { terminateProcess } from "./owned-process.js";
import {
  createProcessMark,
  lookForMark,
  lookUntilSettled,
  markedProcesses,
  markOf,
  processMarkVariable,
  reaperPid,
} from "./process-mark.js";
import { processStat } from "./process-tree.js";
import { createRun } from "./run.js";

// Real processes on Linux's /proc: daemons that double-fork out of every process group and
// session, found again by the mark in their environment.

/** The first line the child prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (data: Buffer) => {
      text += data.toString();
      if (text.includes("\n")) resolve(text.split("\n")[0]!);
    });
    child.once("exit", () => reject(new Error(`exited before printing a line (${text})`)));
  });
}

// A daemon by the classic double fork: the subshell exits at once, so `sleep` is adopted by the
// init process, in a session of its own, with its output on /dev/null. Nothing leads back to the
// shell that started it except what it inherited.
const daemonScript = '(setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > "$1"); exit 0';

const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended, as it should have.
    }
  }
});

async function startDaemon(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; daemon: number }> {
  const pidFile = join(tempDir(), "daemon.pid");
  const child = spawn("/bin/sh", ["-c", daemonScript, "sh", pidFile], {
    detached: true,
    stdio: "ignore",
    env,
  });
  await new Promise((resolve) => child.once("exit", resolve));
  const daemon = Number(readFileSync(pidFile, "utf8").trim());
  leftovers.push(daemon);
  // Settled: `sleep` runs (setsid has exec'd) in a session of its own, and neither the shell nor
  // its subshell is its parent any more (adopted).
  const settled = () => {
    const stat = processStat(daemon);
    if (stat === undefined || stat.ppid === child.pid || processStat(stat.ppid)?.ppid === child.pid)
      return false;
    return (
      sessionOf(daemon) === daemon && readFileSync(`/proc/${daemon}/cmdline`, "utf8").startsWith("sleep")
    );
  };
  expect(await waitFor(settled, 2000)).toBe(true);
  expect(dead(daemon)).toBe(false);
  return { child, daemon };
}

/**
 * A folder holding this module's own code (transpiled as is) and `host.js`: a Node host that
 * marks a shell which double-forks a daemon, then prints the daemon's and its reaper's pids and
 * waits. A separate process, so that it can be killed without ending the test.
 */
function hostFolder(): string {
  const folder = tempDir();
  transpileModules(folder, reaperModules);
  mkdirSync(join(folder, "work"));
  writeFileSync(
    join(folder, "host.js"),
    [
      'import { spawn } from "node:child_process";',
      'import { readFileSync } from "node:fs";',
      'import { createProcessMark, reaperPid } from "./run/process-mark.js";',
      "const mark = createProcessMark();",
      `const child = spawn("/bin/sh", ["-c", ${JSON.stringify(daemonScript)}, "sh", "work/daemon.pid"], { stdio: "ignore", env: { ...process.env, ...mark.env } });`,
      'child.once("exit", () => {',
      '  console.log(JSON.stringify({ daemon: Number(readFileSync("work/daemon.pid", "utf8")), reaper: reaperPid() }));',
      "  setInterval(() => {}, 1000);",
      "});",
    ].join("\n"),
  );
  writeFileSync(
    join(folder, "worker.js"),
    [
      'import { parentPort } from "node:worker_threads";',
      'import { createProcessMark, reaperPid } from "./run/process-mark.js";',
      "createProcessMark();",
      "parentPort.postMessage(reaperPid());",
    ].join("\n"),
  );
  return folder;
}

describe("process marks", () => {
  it("finds a double-forked daemon by its mark and ends it with the run, after its parent exited", async () => {
    const mark = createProcessMark();
    const { child, daemon } = await startDaemon({ ...process.env, ...mark.env });
    expect(markedProcesses(mark.value).map(({ pid }) => pid)).toEqual([daemon]);
    const run = createRun({ workingDirectory: tempDir() });
    run.ownProcess(child, { group: true, mark: mark.value, graceMs: 500 });
    const report = await run.dispose();
    expect(report.failed).toEqual([]);
    expect(await waitFor(() => dead(daemon), 2000)).toBe(true);
  });

  it("leaves such a daemon running without a mark (what the mark adds)", async () => {
    const { child, daemon } = await startDaemon(process.env);
    await terminateProcess(child, { group: true, graceMs: 200 });
    expect(dead(daemon)).toBe(false);
  });

  it("reads the mark from a running child's environment and ignores one it did not issue", async () => {
    const mark = createProcessMark();
    const own = spawn("sleep", ["30"], { env: { ...process.env, ...mark.env } });
    const foreignValue = "1-2-3-abcdef01";
    const foreign = spawn("sleep", ["30"], { env: { ...process.env, [processMarkVariable]: foreignValue } });
    const other = spawn("sleep", ["30"], { env: { ...process.env, [processMarkVariable]: foreignValue } });
    leftovers.push(own.pid!, foreign.pid!, other.pid!);
    expect(await waitFor(() => markOf(own.pid) === mark.value, 2000)).toBe(true);
    expect(markOf(foreign.pid)).toBeUndefined();
    // An outer host's mark is not ours to sweep: ending one carrier leaves the other.
    await terminateProcess(foreign, { group: false, graceMs: 200 });
    expect(dead(other.pid!)).toBe(false);
    await terminateProcess(own, { graceMs: 200 });
    expect(markedProcesses(mark.value)).toEqual([]);
  });

  it("ends marked daemons when the host is SIGKILLed (the reaper)", async () => {
    const folder = hostFolder();
    const host = spawn(process.execPath, ["host.js"], { cwd: folder, stdio: ["ignore", "pipe", "inherit"] });
    const { daemon, reaper } = JSON.parse(await firstLine(host)) as { daemon: number; reaper: number };
    leftovers.push(daemon, reaper);
    expect(dead(daemon)).toBe(false);
    expect(dead(reaper)).toBe(false);
    host.kill("SIGKILL");
    expect(await waitFor(() => dead(daemon), 5000)).toBe(true);
    expect(await waitFor(() => dead(reaper), 5000)).toBe(true);
  });

  it("ends marked daemons when the host is SIGKILLed on a system without GNU grep -z", async () => {
    // A grep that refuses -z, as busybox's and BSD's do; the reaper falls back to reading one
    // environment at a time.
    const folder = hostFolder();
    const bin = join(folder, "bin");
    mkdirSync(bin);
    const realGrep = ["/usr/bin/grep", "/bin/grep"].find((path) => existsSync(path))!;
    writeFileSync(
      join(bin, "grep"),
      `#!/bin/sh\nfor arg; do case "$arg" in -*z*) echo "grep: invalid option -- 'z'" >&2; exit 2;; esac; done\nexec ${realGrep} "$@"\n`,
      { mode: 0o755 },
    );
    const host = spawn(process.execPath, ["host.js"], {
      cwd: folder,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    const { daemon, reaper } = JSON.parse(await firstLine(host)) as { daemon: number; reaper: number };
    leftovers.push(daemon, reaper);
    host.kill("SIGKILL");
    // Without grep -z the reaper reads every environment one at a time, each round: slow on a
    // loaded machine, so the bounds are wider than the GNU path's.
    expect(await waitFor(() => dead(daemon), 15_000)).toBe(true);
    expect(await waitFor(() => dead(reaper), 15_000)).toBe(true);
  }, 40_000);

  it("leaves a host's reaper to end what the host started when an outer host ends it with its group", async () => {
    // The outer host (this test) ends the inner one as the shell tool ends a command: its group
    // and every descendant. The inner reaper is a descendant but must outlive its host.
    const folder = hostFolder();
    const host = spawn(process.execPath, ["host.js"], {
      cwd: folder,
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const { daemon, reaper } = JSON.parse(await firstLine(host)) as { daemon: number; reaper: number };
    leftovers.push(daemon, reaper);
    await terminateProcess(host, { group: true, graceMs: 500 });
    expect(await waitFor(() => dead(daemon), 5000)).toBe(true);
    expect(await waitFor(() => dead(reaper), 5000)).toBe(true);
  });

  it("a worker thread's reaper ends only that thread's marks, when the thread ends", async () => {
    const mark = createProcessMark();
    const mine = spawn("sleep", ["30"], { stdio: "ignore", env: { ...process.env, ...mark.env } });
    leftovers.push(mine.pid!);
    const worker = new Worker(join(hostFolder(), "worker.js"));
    // Both listeners go on at once: a thread that ends before its message is read has the message
    // and then "exit" emitted in one go, before an "exit" listener added after the message.
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    const reaper = await new Promise<number>((resolve) => worker.once("message", resolve));
    leftovers.push(reaper);
    await exited;
    // The thread's reaper saw its pipe close, swept, and exited; what this thread marked is left.
    expect(await waitFor(() => dead(reaper), 5000)).toBe(true);
    expect(dead(mine.pid!)).toBe(false);
  });

  it("ends what a daemon that ignores SIGTERM kept forking up to its SIGKILL", async () => {
    const mark = createProcessMark();
    // Ignores SIGTERM and starts `sleep`s as fast as it can: a fork may land right before its SIGKILL.
    const storm = "setsid sh -c 'trap \"\" TERM; while :; do sleep 30 & done' </dev/null >/dev/null 2>&1 &";
    const child = spawn("/bin/sh", ["-c", storm], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, ...mark.env },
    });
    await new Promise((resolve) => child.once("exit", resolve));
    expect(await waitFor(() => markedProcesses(mark.value).length > 5, 5000)).toBe(true);
    await terminateProcess(child, { mark: mark.value, graceMs: 200 });
    const left = () => markedProcesses(mark.value).map(({ pid }) => pid);
    try {
      expect(await waitFor(() => left().length === 0, 2000), `left: ${left().join(" ")}`).toBe(true);
    } finally {
      for (const pid of left()) process.kill(pid, "SIGKILL");
    }
  });

  /**
   * Runs `command(seconds)` in bash `tries` times, ending what it left as a shell tool does (its
   * group at once, then terminateProcess by the mark); returns the `sleep <seconds>` processes
   * that escaped (killed before returning).
   */
  async function escapes(command: (seconds: string) => string, tries: number): Promise<number[]> {
    const sleepers = (seconds: string): number[] =>
      readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            return readFileSync(`/proc/${entry}/cmdline`, "utf8") === `sleep\0${seconds}\0`;
          } catch {
            return false;
          }
        })
        .map(Number)
        .filter((pid) => !dead(pid));
    const left: number[] = [];
    for (let i = 0; i < tries; i++) {
      const seconds = `${2000 + i}.${process.pid}`;
      const mark = createProcessMark();
      const child = spawn("/bin/bash", ["-c", `${command(seconds)} ; echo started`], {
        detached: true,
        stdio: "ignore",
        env: { ...process.env, ...mark.env },
      });
      await new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group is empty.
      }
      await terminateProcess(child, { mark: mark.value, graceMs: 1000 });
      if (!(await waitFor(() => sleepers(seconds).length === 0, 3000))) left.push(...sleepers(seconds));
    }
    for (const pid of left) process.kill(pid, "SIGKILL");
    return left;
  }

  it("ends a daemon a setsid shell forks as bash exits, also when the first look listed /proc before it was forked (20 tries)", async () => {
    // `sh` forks `sleep` and exits at once: the look after bash exits can list the processes
    // before `sh` forked it and read `sh`'s environment once `sh` was gone, finding neither. A
    // shell tool saw 2 calls in 15 leave it running.
    expect(await escapes((seconds) => `(setsid sh -c "sleep ${seconds} &" &)`, 20)).toEqual([]);
  });

  it("ends a daemon a setsid shell starts through a second shell as bash exits (25 tries)", async () => {
    // Two carriers that fork and exit one after the other: a look may meet each gone or
    // mid-exec (its environment empty for that instant), and must look again until none is.
    const left = await escapes((seconds) => `(setsid sh -c "sh -c 'sleep ${seconds} &' &" &)`, 25);
    expect(left, `${left.length} of 25 escaped`).toEqual([]);
  });

  it("starts another reaper at once when its reaper was ended", async () => {
    createProcessMark();
    const first = reaperPid()!;
    process.kill(first, "SIGKILL");
    expect(await waitFor(() => reaperPid() !== undefined && reaperPid() !== first, 5000)).toBe(true);
    expect(dead(reaperPid()!)).toBe(false);
  });

  it("starts one reaper per thread, which keeps neither the event loop nor our groups", () => {
    createProcessMark();
    const first = reaperPid();
    createProcessMark();
    expect(reaperPid()).toBe(first);
    expect(first).toBeDefined();
    // In a session of its own: no signal to a group of ours reaches it.
    expect(sessionOf(first!)).toBe(first);
  });
});

/**
 * A carrier as a look sees one in the middle of an exec: its environment reads empty (the kernel
 * has given it its new memory but not yet written the environment there). A real exec shows that
 * for microseconds (tens of milliseconds after a large process), too short for a test to meet on
 * purpose, so this Python process makes its own environment's end equal its start (PR_SET_MM_MAP,
 * which checkpoint/restore tools use): /proc then shows the same empty environment until it puts
 * the end back, on a line on its standard input. It prints "hidden", then "shown", then waits.
 */
const midExecCarrier = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.sbrk.restype = ctypes.c_void_p
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
names = ("start_code", "end_code", "start_data", "end_data", "start_brk", "brk", "start_stack",
         "arg_start", "arg_end", "env_start", "env_end", "auxv")
class MmMap(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in names] + [("auxv_size", ctypes.c_uint32), ("exe_fd", ctypes.c_uint32)]
fields = open("/proc/self/stat").read().rsplit(")", 1)[1].split()
field = lambda n: int(fields[n - 3])
def environment_end(end):
    mm = MmMap(start_code=field(26), end_code=field(27), start_data=field(45), end_data=field(46),
               start_brk=field(47), brk=libc.sbrk(0), start_stack=field(28), arg_start=field(48),
               arg_end=field(49), env_start=field(50), env_end=end, auxv=0, auxv_size=0, exe_fd=0xFFFFFFFF)
    if libc.prctl(35, 14, ctypes.addressof(mm), ctypes.sizeof(mm), 0) != 0:
        sys.exit("PR_SET_MM_MAP refused (errno %d): the kernel needs CONFIG_CHECKPOINT_RESTORE" % ctypes.get_errno())
environment_end(field(50))
print("hidden", flush=True)
sys.stdin.readline()
environment_end(field(51))
print("shown", flush=True)
sys.stdin.readline()
`;

describe.skipIf(process.platform !== "linux")("a settled look by the mark", () => {
  it("finds a carrier met in the middle of an exec, which one immediate look misses", async () => {
    const mark = createProcessMark();
    const carrier = spawn("/usr/bin/python3", ["-S", "-c", midExecCarrier], {
      env: { ...process.env, ...mark.env },
      stdio: ["pipe", "pipe", "inherit"],
    });
    leftovers.push(carrier.pid!);
    const lines: string[] = [];
    carrier.stdout!.on("data", (data: Buffer) => lines.push(...data.toString().split("\n").filter(Boolean)));
    expect(await waitFor(() => lines.includes("hidden") || carrier.exitCode !== null, 10_000)).toBe(true);
    expect(lines).toEqual(["hidden"]);

    // One look: the carrier is not found, and the look says it met a process it could not judge.
    expect(markedProcesses(mark.value)).toEqual([]);
    expect(lookForMark(mark.value).unsettled).toBe(true);

    // A settled look: its first look (before its first pause) misses the carrier too; the carrier
    // then finishes its "exec", and a later look finds it. The bound is wider than the default
    // (about 50 ms) only because a Python process is told to finish across a pipe, which a busy
    // machine may take longer for than a real exec.
    const settling = lookUntilSettled(mark.value, 300, 10);
    carrier.stdin!.write("show\n");
    const found = await settling;
    expect(found.map(({ pid }) => pid)).toEqual([carrier.pid]);
    carrier.kill("SIGKILL");
  });
});
