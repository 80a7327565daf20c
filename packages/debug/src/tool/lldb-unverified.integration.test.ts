import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ci, debugRun, removeWorkspace, workspace } from "../__fixtures__/harness.js";
import { lldb } from "../__fixtures__/backends.js";

describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a breakpoint lldb cannot place", () => {
  it("says why it is not verified (lldb-dap gives no message)", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    const dir = workspace("c");
    const { run, call } = debugRun(dir);
    try {
      execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
      // A C file of the project that is not built into the program.
      writeFileSync(join(dir, "other.c"), "int other(void) {\n    return 1;\n}\n");
      await call({ op: "breakpoints", file: "other.c", lines: [2] });
      await call({ op: "breakpoints", file: "prog.c", lines: [4] });
      const launch = await call({ op: "launch", program: "prog" });
      expect(launch.text, launch.text).toContain("stopped (breakpoint)");
      expect(launch.text).toContain(
        "line 2: NOT verified: lldb found no code for this line in the program's debug info so far: " +
          "is the program built with -g from this file, at this path",
      );
      expect(launch.text).toMatch(/line 4: verified {2}\| int r = n \* n;/);
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
  });
});
