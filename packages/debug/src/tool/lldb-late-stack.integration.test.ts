import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findOnPath, findVersioned } from "../adapters/find-binary.js";
import { DebugError } from "../errors/debug-error.js";
import type { FramePage } from "../session/debug-session.js";
import { ci, debugRun, remaining, removeWorkspace, workspace } from "../__fixtures__/harness.js";

const searchPath = process.env.PATH ?? "";
const lldb = findVersioned("lldb-dap", searchPath) && findOnPath("cc", searchPath);

// A stack listing whose answer arrives after the program resumed (a `stack` and a step sent
// together through the public DebugSession): its frames are of a stop that is gone. lldb-dap
// numbers frames by their depth, so had its ids been taken into the next stop, the listing's
// `square` frame would read the locals of whatever frame is at that depth there (main's).
describe.skipIf(!lldb && !ci)("DebugSession on lldb-dap: a stack answered after a resume", () => {
  it("gives no frame id of the stop it listed to the next stop", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    const dir = workspace("c");
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
    const { run, supervisor, call, sessionPids } = debugRun(dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "prog.c", lines: [4] });
      const launch = await call({ op: "launch", program: "prog" });
      expect(launch.text, launch.text).toContain("prog.c:4 in square");
      pids = sessionPids();
      const session = supervisor.conversation("conv-1").session!;

      // The stackTrace goes out first; the step drops the stop before its answer can come.
      const late = session.stack().then(
        (page): FramePage | DebugError => page,
        (error: unknown) => error as DebugError,
      );
      const out = await session.resume("stepOut");
      expect(out.kind).toBe("stopped");
      const listed = await late;
      expect(DebugError.isInstance(listed), `the late listing was taken: ${JSON.stringify(listed)}`).toBe(
        true,
      );
      // Refused as it is when the answer comes: running still, or stopped again (a step is quick).
      const refusal = listed as DebugError;
      expect(["DEBUG_NOT_STOPPED", "DEBUG_STALE_REFERENCE"]).toContain(refusal.code);
      expect(refusal.message).toMatch(
        /^the program resumed while its stack was listed \(thread \d+\), so the listing is of a stop that is gone; /,
      );

      // The new stop lists its own frames: main on top, no id of the late listing among them.
      const now = await session.stack();
      expect(now.frames[0]?.name).toBe("main");
      const locals = (await session.scopes(now.frames[0]!.id)).find((scope) => scope.name === "Locals");
      const names = (await session.variables(locals!.variablesReference)).variables.map((one) => one.name);
      expect(names).toContain("s");
      expect(names).not.toContain("n");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    expect(remaining(pids)).toEqual([]);
  });
});
