import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signalProcesses } from "@tools/registry";
import {
  ci,
  debugRun,
  identify,
  remaining,
  removeWorkspace,
  until,
  workspace,
} from "../__fixtures__/harness.js";
import { sentCommands } from "../__fixtures__/sent-commands.js";
import { lldb } from "../__fixtures__/backends.js";

afterEach(() => {
  vi.restoreAllMocks();
});

// A launch cancelled during its handshake ends its session, which takes a while (a disconnect
// bounded at 2 s, the adapter's exit, the kills). Until it had ended, the session stayed the
// conversation's as "starting": `status` said "starting", an op said "the adapter refused
// threads: … the adapter closed the connection", and the launch the model made again at once
// was refused, "a debug session is already running in this conversation … use it, or end it".
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a launch cancelled during its handshake", () => {
  it("says the session is ending, and a launch right after waits for its end and starts", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    const dir = workspace("c");
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
    const { run, supervisor, call, sessionPids } = debugRun(dir);
    const commands = sentCommands();
    const sent = (command: string) => commands().includes(command);
    const pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "prog.c", lines: [4] });
      const cancel = new AbortController();
      const launching = call({ op: "launch", program: "prog" }, cancel.signal);
      expect(await until(() => sent("launch"), 10_000), "the launch request went out").toBe(true);
      const first = supervisor.conversation("conv-1").session!;
      pids.push(...sessionPids());
      // lldb-dap held (SIGSTOP): the session's end waits on its disconnect, for certain, a while.
      expect(signalProcesses(identify([first.adapterPid!]), "SIGSTOP")).toBe(1);
      cancel.abort(new Error("the operator pressed stop"));
      expect((await launching).code).toBe("CANCELLED");

      const status = await call({ op: "status" });
      expect(status.text).toMatch(/ending: its launch call was cancelled/);
      expect(status.text).not.toMatch(/^starting$/m);
      const pause = await call({ op: "pause" });
      expect(pause.code).toBe("DEBUG_NO_SESSION");
      expect(pause.text).toContain("is ending because its launch call was cancelled");

      // Before: DEBUG_SESSION_EXISTS, "use it, or end it with op 'terminate'".
      const again = await call({ op: "launch", program: "prog" });
      expect(again.isError, again.text).toBe(false);
      expect(again.text).toContain("prog.c:4 in square");
      pids.push(...sessionPids());
      expect(first.state).toBe("ended");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    // The program, killed while lldb-dap was held and could not reap it, is a zombie of PID 1
    // once lldb-dap is gone: PID 1 reaps it in its own time (later under load).
    await until(() => remaining(pids).length === 0, 5000);
    expect(remaining(pids)).toEqual([]);
  });
});
