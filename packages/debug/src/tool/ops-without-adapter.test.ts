import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { debugRun } from "../__fixtures__/harness.js";
import type { DebugSession } from "../session/debug-session.js";
import { OutputRing } from "../session/output-ring.js";

// Ops answered from the conversation's own state, with no adapter running: `output` after a
// session, `status` after one ended.

/** The conversation's last session, as far as `output` reads it: its output ring. */
function endedSession(output: OutputRing): DebugSession {
  return {
    output,
    description: "debugpy: app.py",
    endReason: "the program exited",
  } as unknown as DebugSession;
}

describe("debug tool ops that need no adapter", () => {
  const dir = mkdtempSync(join(tmpdir(), "debug-ops-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("output reads from the cursor forward, and the next cursor reaches what was not shown", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      const ring = new OutputRing();
      // 600 lines of 31 characters: more than one answer holds (12 000 characters, 400 lines).
      for (let line = 0; line < 600; line++)
        ring.push("stdout", `line ${String(line).padStart(5, "0")} ${"y".repeat(19)}\n`);
      supervisor.conversation("conv-1").last = endedSession(ring);

      const first = await call({ op: "output" });
      expect(first.text).toMatch(/^line 00000 /);
      const next = Number(
        /\(next cursor: (\d+); (\d+) more lines \(\d+ characters\) after it/.exec(first.text)?.[1],
      );
      expect(next).toBeGreaterThan(0);
      expect(next).toBeLessThan(600);
      expect(first.text).toContain(`line ${String(next - 1).padStart(5, "0")} `);
      expect(first.text).not.toContain(`line ${String(next).padStart(5, "0")} `);
      expect(first.text).toContain(`${600 - next} more lines`);

      // Reading on from the next cursor continues where the first answer stopped, to the end.
      const seen = new Set([...first.text.matchAll(/line (\d{5})/g)].map((match) => Number(match[1])));
      let cursor = next;
      for (let reads = 0; reads < 5; reads++) {
        const page = await call({ op: "output", cursor });
        for (const match of page.text.matchAll(/line (\d{5})/g)) seen.add(Number(match[1]));
        cursor = Number(/\(next cursor: (\d+)/.exec(page.text)![1]);
        if (page.text.includes("no more output yet")) break;
      }
      expect(cursor).toBe(600);
      expect(seen.size).toBe(600);
    } finally {
      await run.dispose();
    }
  });

  it("output says how much was dropped before a cursor the buffer no longer holds", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      const ring = new OutputRing(3);
      for (const text of ["a\n", "b\n", "c\n", "d\n", "e\n"]) ring.push("stdout", text);
      supervisor.conversation("conv-1").last = endedSession(ring);
      const late = await call({ op: "output", cursor: 1 });
      expect(late.text).toBe(
        "(1 earlier output line was dropped from the buffer before this was read; it starts at cursor 2)\n" +
          "c\nd\ne\n(next cursor: 5; no more output yet)",
      );
    } finally {
      await run.dispose();
    }
  });

  it("status labels breakpoint answers from a session that has ended", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      writeFileSync(join(dir, "app.py"), "x = 1\ny = 2\n");
      const state = supervisor.conversation("conv-1");
      state.breakpoints.set(join(dir, "app.py"), [2]);
      state.breakpoints.store(join(dir, "app.py"), [
        { requested: 2, line: 2, verified: true, message: undefined, id: 1 },
      ]);
      const status = await call({ op: "status" });
      expect(status.text).toBe(
        "no debug session\nbreakpoints:\n" +
          "app.py (as the last session answered; sent again at the next launch or attach)\n  line 2: verified  | y = 2",
      );
    } finally {
      await run.dispose();
    }
  });
});
