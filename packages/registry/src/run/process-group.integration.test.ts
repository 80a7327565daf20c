import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { dead, waitFor } from "../testing/processes.js";
import { terminateProcess } from "./owned-process.js";
import { signalGroup } from "./process-group.js";

// Real processes: a detached child leads its own process group, and its pid comes back to another
// process once pids wrap. Linux lets root choose the next pid (/proc/sys/kernel/ns_last_pid), so
// the wrap is made to happen here instead of after 32768 spawns.

const lastPid = "/proc/sys/kernel/ns_last_pid";
const canChoosePid = (() => {
  try {
    accessSync(lastPid, constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

const leftovers: ChildProcess[] = [];
afterEach(() => {
  for (const child of leftovers.splice(0)) child.kill("SIGKILL");
});

function exitOf(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve),
  );
}

/** A `sleep` in a process group of its own (spawned detached), ended after the test. */
function detachedSleep(seconds: number): ChildProcess {
  const child = spawn("sleep", [String(seconds)], { detached: true, stdio: "ignore" });
  leftovers.push(child);
  return child;
}

/**
 * A detached `sleep` that gets `pid` (a process leading the group of that number), or undefined
 * when other processes of the machine kept taking it (a few tries).
 */
async function strangerWithPid(pid: number): Promise<ChildProcess | undefined> {
  // Any process or thread another program starts between the write and the fork takes the pid
  // first: under a busy machine (the other packages' suites forking beside this one) 50 tries
  // were not always enough.
  // Put forward again afterwards: the pids freed meanwhile by the machine's other processes (the
  // other suites beside this one) are not given out again at once.
  const counter = Number(readFileSync(lastPid, "utf8"));
  try {
    for (let attempt = 0; attempt < 500; attempt++) {
      writeFileSync(lastPid, String(pid - 1));
      const child = detachedSleep(30);
      await new Promise((resolve) => child.once("spawn", resolve));
      if (child.pid === pid) return child;
      child.kill("SIGKILL");
    }
    return undefined;
  } finally {
    writeFileSync(lastPid, String(Math.max(counter, Number(readFileSync(lastPid, "utf8")))));
  }
}

describe("signalGroup", () => {
  it("signals the whole group while its leader runs", async () => {
    const leader = spawn("/bin/sh", ["-c", "sleep 30 & wait"], { detached: true, stdio: "ignore" });
    leftovers.push(leader);
    await new Promise((resolve) => leader.once("spawn", resolve));
    expect(signalGroup(leader, "SIGKILL")).toBe(true);
    await exitOf(leader);
    expect(leader.signalCode).toBe("SIGKILL");
  });

  it("reaches what is left of the group after its leader exited", async () => {
    const leader = spawn("/bin/sh", ["-c", "sleep 30 & echo $!"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let printed = "";
    leader.stdout!.on("data", (data: Buffer) => (printed += data.toString()));
    await exitOf(leader);
    const member = Number(printed.trim());
    expect(dead(member)).toBe(false);
    expect(signalGroup(leader, "SIGKILL")).toBe(true);
    expect(await waitFor(() => dead(member), 2000)).toBe(true);
  });

  // Root only (CI runs as root: there it runs, and fails if it cannot choose the pid).
  it.runIf(canChoosePid || process.env.CI === "true")(
    "leaves alone a stranger that got the pid of a leader whose group is gone",
    async () => {
      const leader = detachedSleep(0);
      await exitOf(leader);
      const stranger = await strangerWithPid(leader.pid!);
      expect(stranger?.pid).toBe(leader.pid);
      expect(signalGroup(leader, "SIGKILL")).toBe(false);
      // terminateProcess signals the group at SIGTERM and again at the end.
      await terminateProcess(leader, { group: true, graceMs: 100 });
      // A signal sent would have ended it by now.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(dead(stranger!.pid!)).toBe(false);
      expect(stranger!.signalCode).toBeNull();
    },
  );
});
