import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ProcessIdentity } from "@tools/registry";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DapConnection } from "../dap/dap-connection.js";
import {
  ci,
  debugRun,
  identify,
  killLeftovers,
  remaining,
  removeWorkspace,
  stillRunning,
} from "../__fixtures__/harness.js";
import { lldb } from "../__fixtures__/backends.js";

// Under lldb-dap the program's output is a pseudo-terminal (/dev/pts/N). lldb closes it when the
// program exits, and Linux gives the name to the next terminal opened: another suite's tmux pane
// took it, and the session's end, looking for what still wrote to the program's output by that
// name, SIGKILLed the pane's process. The next terminal here is opened at once by a helper (the
// way tmux did), and the session's disconnect waits until it has a writer: no timing decides.

/**
 * Waits until the terminal named in argv[1] is gone, opens terminals until one gets that name
 * (holding those under it: Linux gives the lowest free number), runs a `sleep` writing to it and
 * prints its pid; prints "taken" if another program opened that name first. Then waits for its
 * standard input to close.
 */
const nextTerminal = `
import os, pty, subprocess, sys, time
name = sys.argv[1]
number = int(name.rsplit("/", 1)[1])
deadline = time.monotonic() + 20
while os.path.exists(name):
    if time.monotonic() > deadline:
        print("still open", flush=True)
        sys.exit(1)
    time.sleep(0.001)
held = []
got = None
while got is None:
    master, slave = pty.openpty()
    opened = int(os.ttyname(slave).rsplit("/", 1)[1])
    if opened == number:
        got = (master, slave)
    elif opened > number:
        os.close(slave); os.close(master)
        break
    else:
        held.append((master, slave))
for pair in held:
    os.close(pair[0]); os.close(pair[1])
if got is None:
    print("taken", flush=True)
    sys.exit(0)
writer = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL, stdout=got[1], stderr=got[1])
print(writer.pid, flush=True)
sys.stdin.read()
writer.kill()
writer.wait()
`;

const helpers: ChildProcess[] = [];
const writers: (ProcessIdentity | undefined)[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  killLeftovers(writers.splice(0));
  for (const helper of helpers.splice(0)) helper.kill("SIGKILL");
});

/** What one launch-to-exit gave: the helper's line ("taken", or the sleep's pid) and the tool's answers. */
interface Attempt {
  readonly helper: string;
  readonly exit: string;
  readonly status: string;
  /** The sleep and the helper, as they were when found (undefined once gone). */
  readonly writers: (ProcessIdentity | undefined)[];
  readonly pids: number[];
}

describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: the program's terminal given to another", () => {
  let dir: string;
  beforeAll(() => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    dir = mkdtempSync(join(tmpdir(), "tools-debug-ttyname-"));
    writeFileSync(join(dir, "CMakeLists.txt"), "project(tty C)\n");
    writeFileSync(
      join(dir, "tty.c"),
      ["int main(void) {", "    int code = 0;", "    return code;", "}", ""].join("\n"),
    );
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "tty"), join(dir, "tty.c")]);
  });
  afterAll(() => removeWorkspace(dir));

  /** Launches to line 3, then continues to the exit while a helper takes the program's terminal name. */
  async function attempt(): Promise<Attempt> {
    const { run, call, supervisor, sessionPids } = debugRun(dir);
    const session = () => supervisor.conversation("conv-1").session;
    try {
      await call({ op: "breakpoints", file: "tty.c", lines: [3] });
      const launch = await call({ op: "launch", program: "tty" });
      expect(launch.text, launch.text).toContain("stopped (breakpoint)");
      const pids = sessionPids();
      const [debuggee] = [...(session()?.debuggeePids ?? [])];
      const name = readlinkSync(`/proc/${debuggee}/fd/1`);
      expect(name).toMatch(/^\/dev\/pts\/\d+$/);
      const helper = spawn("python3", ["-c", nextTerminal, name], { stdio: ["pipe", "pipe", "inherit"] });
      helpers.push(helper);
      const line = createInterface({ input: helper.stdout! })[Symbol.asyncIterator]().next();
      const said = line.then(({ value }) => String(value));
      // The disconnect (the session's end, after the exit) goes once the new terminal has a
      // writer: the session looks for the program's leftovers after it.
      const request = Reflect.get(DapConnection.prototype, "request") as (
        ...all: unknown[]
      ) => Promise<never>;
      vi.spyOn(DapConnection.prototype, "request").mockImplementation(async function (
        this: DapConnection,
        command: string,
        ...rest: unknown[]
      ) {
        if (command === "disconnect") {
          const bound = new Promise<string>((resolve) =>
            setTimeout(() => resolve("no answer within 20 s"), 20_000),
          );
          const what = await Promise.race([said, bound]);
          const sleep = Number(what);
          if (Number.isInteger(sleep)) writers.push(...identify([sleep, helper.pid!]));
        }
        return Reflect.apply(request, this, [command, ...rest]);
      } as DapConnection["request"]);
      const exit = await call({ op: "continue" });
      const status = await call({ op: "status" });
      return { helper: await said, exit: exit.text, status: status.text, writers: [...writers], pids };
    } finally {
      await run.dispose();
    }
  }

  it("leaves the writers of the next terminal given the program's terminal name running", async () => {
    // Another program may open the freed name before the helper (a parallel lldb test): the
    // helper says so, and the whole launch is made again, on the name that program gets.
    let result = await attempt();
    for (let again = 0; again < 3 && result.helper === "taken"; again++) result = await attempt();
    expect(result.helper, "the helper's terminal got the program's terminal name").toMatch(/^\d+$/);
    expect(result.writers.filter(Boolean)).toHaveLength(2);
    // The session's end killed both (SIGKILL) and said "the session has ended, and with it 2
    // background processes the program had left running".
    expect(
      stillRunning(result.writers),
      `the new terminal's sleep and helper still run: ${result.exit}`,
    ).toHaveLength(2);
    expect(result.exit).toMatch(/^the program exited with code 0; the session has ended\n/);
    expect(result.status).toMatch(/ended because the program exited with code 0\n/);
    expect(remaining(result.pids)).toEqual([]);
  });
});
