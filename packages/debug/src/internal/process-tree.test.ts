import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { descendants, isAlive, startTime } from "./process-tree.js";

describe("process tree", () => {
  it("tells a process by its start time, lists its descendants, and knows when it is gone", async () => {
    const mine = startTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    expect(startTime(process.pid)).toBe(mine);
    const child = spawn("sleep", ["30"]);
    try {
      await once(child, "spawn");
      const pid = child.pid!;
      expect(descendants(process.pid)).toContain(pid);
      // Started well after this process: another identity behind another pid.
      expect(Number(startTime(pid))).toBeGreaterThan(Number(mine));
      expect(isAlive(pid)).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    expect(startTime(child.pid!)).toBeUndefined();
  });
});
