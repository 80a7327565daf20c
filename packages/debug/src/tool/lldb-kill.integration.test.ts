import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ci,
  debugRun,
  identify,
  killLeftovers,
  remaining,
  removeWorkspace,
} from "../__fixtures__/harness.js";
import { processStat } from "../internal/process-tree.js";
import { lldb } from "../__fixtures__/backends.js";

// A program killed from outside (SIGKILL: lldb stops on every other signal first). lldb-dap
// reports -1 for one killed while stopped and 9 for one killed while running, as for exit(9).

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a program killed by SIGKILL", () => {
  let dir: string;
  beforeAll(() => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    dir = mkdtempSync(join(tmpdir(), "tools-debug-ckill-"));
    writeFileSync(join(dir, "CMakeLists.txt"), "project(killed C)\n");
    writeFileSync(
      join(dir, "spin.c"),
      [
        "#include <unistd.h>",
        "int main(void) {",
        "    for (int n = 0;; n++) {",
        "        sleep(1);",
        "    }",
        "}",
        "",
      ].join("\n"),
    );
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "spin"), join(dir, "spin.c")]);
  });
  afterAll(() => removeWorkspace(dir));

  /** Launches `spin` to its breakpoint; the debuggee's pid and everything the session runs. */
  async function launched(
    call: ReturnType<typeof debugRun>["call"],
    sessionPids: () => number[],
    session: () => { debuggeePids: ReadonlySet<number> } | undefined,
  ) {
    await call({ op: "breakpoints", file: "spin.c", lines: [4] });
    const launch = await call({ op: "launch", program: "spin" });
    expect(launch.text, launch.text).toContain("stopped (breakpoint)");
    const [debuggee] = [...(session()?.debuggeePids ?? [])];
    expect(debuggee, "the debuggee's pid").toBeDefined();
    // Who it is now: killed later only while it is still that process.
    const [identity] = identify([debuggee!]);
    expect(identity, "the debuggee runs").toBeDefined();
    return { debuggee: debuggee!, identity: identity!, pids: sessionPids() };
  }

  it("says a program killed while stopped was killed by SIGKILL, not that it exited with code -1", async () => {
    const { run, call, sessionPids, supervisor } = debugRun(dir);
    const session = () => supervisor.conversation("conv-1").session;
    let pids: number[] = [];
    try {
      const started = await launched(call, sessionPids, session);
      pids = started.pids;
      expect(killLeftovers([started.identity])).toBe(1);
      await until(() => session() === undefined, "the session ends");
      const status = await call({ op: "status" });
      expect(status.text).toContain(
        "ended because the program was killed by signal SIGKILL (9) while stopped: lldb-dap lost it and reports -1",
      );
      expect(status.text).not.toContain("code -1");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });

  it("says a running program's 9 is exit(9) or SIGKILL", async () => {
    const { run, call, sessionPids, supervisor } = debugRun(dir, { resumeWaitMs: 30_000 });
    const session = () => supervisor.conversation("conv-1").session;
    let pids: number[] = [];
    try {
      const started = await launched(call, sessionPids, session);
      pids = started.pids;
      await call({ op: "breakpoints", file: "spin.c", lines: [] });
      const resumed = call({ op: "continue" });
      // Running again: sleeping in sleep(), no longer in a tracing stop ("t").
      await until(() => processStat(started.debuggee)?.state === "S", "the program runs again");
      expect(killLeftovers([started.identity])).toBe(1);
      const done = await resumed;
      expect(done.text).toContain(
        "the program exited with code 9 (or was killed by signal SIGKILL (9), which the adapter reports the same); the session has ended",
      );
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});
