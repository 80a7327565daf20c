// A real lldb-dap session on the C fixture, stopped at prog.c:4 in `square` (main below it).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import type { DebugSession } from "../session/debug-session.js";
import { debugRun, remaining, removeWorkspace, workspace, type Call } from "./harness.js";
import { lldb } from "./backends.js";

/**
 * Builds the C fixture, launches it under lldb-dap stopped in `square`, runs `body` with the
 * session (the public DebugSession, which takes calls at once) and the run's tool `call`, then
 * ends the run and checks that no process of the session is left.
 */
export async function inLldbSquare(
  body: (
    session: DebugSession,
    call: (args: Record<string, unknown>, signal?: AbortSignal) => Promise<Call>,
  ) => Promise<void>,
): Promise<void> {
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
    await body(supervisor.conversation("conv-1").session!, call);
  } finally {
    await run.dispose();
    removeWorkspace(dir);
  }
  expect(remaining(pids)).toEqual([]);
}
