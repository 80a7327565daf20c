import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { descendants, firstChildOf, isAlive } from "./process-tree.js";

// A stand-in for the reaper shim's tree (a shell in place of the shim, `sleep` in place of delve
// and of an orphan it adopts): what counts is which of the parent's children is named, and a
// real delve cannot be made to die, or its program's orphan to take a lower pid, on cue.
describe("firstChildOf", () => {
  it("keeps naming the parent's first child, and nothing once it has ended, never a later child", async () => {
    const parent = spawn(
      "sh",
      ["-c", "sleep 300 & a=$!; echo $a; read _; kill $a; wait $a; sleep 301 & echo $!; read _"],
      { detached: true, stdio: ["pipe", "pipe", "ignore"] },
    );
    const lines = createInterface({ input: parent.stdout! })[Symbol.asyncIterator]();
    const nextPid = async (): Promise<number> => Number((await lines.next()).value);
    try {
      const first = await nextPid();
      const adapterPid = firstChildOf(parent.pid!);
      expect(adapterPid()).toBe(first);
      expect(adapterPid()).toBe(first);
      parent.stdin!.write("\n");
      const later = await nextPid();
      expect(isAlive(first)).toBe(false);
      expect(isAlive(later)).toBe(true);
      expect(descendants(parent.pid!)).toEqual([later]);
      expect(adapterPid()).toBeUndefined();
    } finally {
      // Only while the shell is our unreaped child: its pid, the group's id, is not anyone else's.
      if (parent.exitCode === null && parent.signalCode === null) {
        try {
          process.kill(-parent.pid!, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      if (parent.exitCode === null && parent.signalCode === null) await once(parent, "exit");
    }
  });
});
