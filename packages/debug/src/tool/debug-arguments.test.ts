import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { debugRun } from "../__fixtures__/harness.js";

describe("debug tool arguments", () => {
  const dir = mkdtempSync(join(tmpdir(), "debug-args-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses an argument its op does not read, naming the op that does, before anything starts", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      const launch = await call({ op: "launch", program: "app.py", lines: [12] });
      expect(launch.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(launch.text).toBe(
        `op 'launch' does not take 'lines' (breakpoints); it takes program, args, adapter. Make each op its own call, e.g. {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py"}`,
      );
      const status = await call({ op: "status", thread_id: 1, expression: "x" });
      expect(status.text).toContain(
        "op 'status' does not take 'thread_id' (continue, pause, step_over, step_in, step_out, stack), 'expression' (evaluate); it takes nothing else.",
      );
      expect(supervisor.conversation("conv-1").session).toBeUndefined();
      // What an op reads is accepted as before.
      const breakpoints = await call({ op: "breakpoints", file: "app.py", lines: [3] });
      expect(breakpoints.text).toBe("app.py: lines 3 pending; they are sent when the program is launched");
      // An empty string is not given: no path to check either (the workspace guardrail refuses "").
      const blank = await call({ op: "breakpoints", file: "app.py", lines: [3], program: "" });
      expect(blank.isError, blank.text).toBe(false);
      expect(blank.text).toBe("app.py: lines 3 pending; they are sent when the program is launched");
      const noProgram = await call({ op: "launch", program: "" });
      expect(noProgram.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(noProgram.text).toBe("op 'launch' needs 'program'");
    } finally {
      await run.dispose();
    }
  });

  it("refuses a program the forced adapter cannot run, before starting it", async () => {
    writeFileSync(join(dir, "app.py"), "print(1)\n");
    mkdirSync(join(dir, "pkg"), { recursive: true });
    const { run, call } = debugRun(dir);
    try {
      const delve = await call({ op: "launch", program: "app.py", adapter: "delve" });
      expect(delve.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(delve.text).toBe(
        "cannot launch app.py with delve: delve builds a Go package: give its folder or a .go file, or leave adapter out to use debugpy",
      );
      const lldb = await call({ op: "launch", program: "pkg", adapter: "lldb" });
      expect(lldb.text).toBe(
        "cannot launch pkg with lldb: lldb-dap runs a compiled binary: build it first and give the binary, or leave adapter out to use delve",
      );
    } finally {
      await run.dispose();
    }
  });
});
