import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { identify, identifyReported, killLeftovers, stillRunning } from "./harness.js";

// The tests end what a session may have left by identity (pid and start time), never by number
// alone: a pid reused under heavy churn (other packages' tests running beside) is someone else's.
describe("ending leftover processes in tests", () => {
  it("kills a recorded process only while the same process runs under its pid", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await once(child, "spawn");
      const pid = child.pid!;
      const [identity] = identify([pid]);
      expect(identity?.pid).toBe(pid);
      expect(identifyReported(pid, ["sleep", "30"])).toEqual(identity);
      expect(identifyReported(pid, ["sleep", "600"])).toBeUndefined();
      // The same pid recorded with another start time stands for a process that had that pid
      // before: left alone (killing by number would have ended this one).
      const earlier = { pid, start: String(Number(identity!.start) - 1) };
      expect(stillRunning([earlier])).toEqual([]);
      expect(killLeftovers([earlier, undefined])).toBe(0);
      expect(child.exitCode === null && child.signalCode === null).toBe(true);
      const exited = once(child, "exit");
      expect(killLeftovers([identity])).toBe(1);
      expect(await exited).toEqual([null, "SIGKILL"]);
      expect(identify([pid])).toEqual([]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
