import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ToolResult } from "@tools/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { processAlive, waitFor } from "../__fixtures__/wait-for.js";
import * as outputHolders from "./output-holders.js";
import { maxCommandBytes } from "./shell.js";

// The real functions, watched: how often /proc is scanned for holders of the output.
vi.mock("./output-holders.js", async (importOriginal) => {
  const actual = await importOriginal<typeof outputHolders>();
  return { ...actual, endHolders: vi.fn(actual.endHolders) };
});

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

async function pidFrom(path: string): Promise<number> {
  await waitFor(
    async () => (await readFile(path, "utf8").catch(() => "")).trim() !== "",
    `${path} to be written`,
  );
  return Number((await readFile(path, "utf8")).trim());
}

describe("shell", () => {
  it("returns the exit code and the combined stdout and stderr", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", { command: "echo out; echo err >&2; exit 3" });
    expect(result.isError).toBe(false);
    const text = ws.text(result);
    expect(text.split("\n")[0]).toBe("exit code 3");
    expect(text).toContain("out");
    expect(text).toContain("err");
  });

  it("shows output cut inside a character as U+FFFD, not as no output", async () => {
    ws = await tempWorkspace();
    // The first byte of "é" only, as `head -c 1` of a UTF-8 file gives it.
    const result = await ws.call("shell", { command: "printf '\\303'" });
    expect(ws.text(result)).toBe("exit code 0\n\uFFFD");
  });

  it("shows output as a terminal leaves it (no colour codes, a progress line's last drawing), and binary output only by its size", async () => {
    ws = await tempWorkspace();
    const coloured = await ws.call("shell", {
      command:
        "printf '\\033[1;32mPASS\\033[0m src/a.test.ts\\n'; printf 'fetch  10%%\\rfetch 100%%\\r\\n'; ls --color=always -d .",
    });
    expect(ws.text(coloured)).toBe("exit code 0\nPASS src/a.test.ts\nfetch 100%\n.");
    const binary = await ws.call("shell", { command: `head -c 3000 ${JSON.stringify(process.execPath)}` });
    expect(ws.text(binary)).toMatch(
      /^exit code 0\n\(binary data, \d+ characters: not shown; to look at it, pipe it through `od -c \| head` or `xxd \| head`\)$/,
    );
    // What a command printed around its binary data is shown, the end of a long log too.
    const around = await ws.call("shell", {
      command: `echo "== node =="; head -c 3000 ${JSON.stringify(process.execPath)}; echo; seq 1 3000; echo "FAILED: 3 tests"`,
    });
    const text = ws.text(around);
    expect(text).toMatch(
      /^exit code 0\n== node ==\n\(binary data, \d+ characters: not shown;[^\n]*\)\n1\n2\n/,
    );
    expect(text).toMatch(/\n2999\n3000\nFAILED: 3 tests$/);
  });

  it("refuses a command over its byte limit, saying to run a script file instead, and runs one just under it", async () => {
    ws = await tempWorkspace();
    const huge = await ws.call("shell", { command: `echo ${"x".repeat(1_000_000)}` });
    expect(huge.error?.code).toBe("COMMAND_TOO_LONG");
    expect(huge.error?.message).toMatch(
      /^the command is 1000005 bytes, over the limit of 100000 bytes for one command .*write the script to a file with write.*then run it: bash script\.sh$/,
    );
    // The limit is below the system's (128 KiB per argument): a command at the limit starts.
    const atLimit = await ws.call("shell", { command: `: ${"x".repeat(maxCommandBytes - 12)}; echo ran` });
    expect(ws.text(atLimit)).toBe("exit code 0\nran");
  });

  it("says what to do when the system refuses to start bash (E2BIG: the environment is too large)", async () => {
    ws = await tempWorkspace();
    // One variable over 128 KiB: Linux refuses it (MAX_ARG_STRLEN) whatever the command.
    vi.stubEnv("TOOLS_TEST_HUGE", "x".repeat(200_000));
    try {
      const result = await ws.call("shell", { command: "echo hi" });
      expect(result.error?.code).toBe("SPAWN_FAILED");
      expect(result.error?.message).toMatch(
        /^could not start \/bin\/bash \(spawn E2BIG\): the command and the environment together are too large for the system; /,
      );
    } finally {
      vi.unstubAllEnvs();
    }
    expect(ws.text(await ws.call("shell", { command: "echo hi" }))).toBe("exit code 0\nhi");
  });

  it("runs in cwd inside the workspace and refuses one outside", async () => {
    ws = await tempWorkspace({ "sub/file.txt": "x" });
    expect(ws.text(await ws.call("shell", { command: "ls", cwd: "sub" }))).toBe("exit code 0\nfile.txt");
    const outside = await ws.call("shell", { command: "ls", cwd: ".." });
    expect(outside.error?.code).toBe("GUARDRAIL_REFUSED");
  });

  describe("runs the command as `bash -c` alone would", () => {
    afterEach(() => vi.unstubAllEnvs());

    it("reads the BASH_ENV file once, and traces only the command under an exported SHELLOPTS=xtrace", async () => {
      ws = await tempWorkspace({ "env.sh": "echo sourced\n" });
      vi.stubEnv("BASH_ENV", join(ws.dir, "env.sh"));
      expect(ws.text(await ws.call("shell", { command: "echo hi" }))).toBe("exit code 0\nsourced\nhi");
      vi.unstubAllEnvs();
      vi.stubEnv("SHELLOPTS", "xtrace");
      const traced = ws.text(await ws.call("shell", { command: "echo hi" })).split("\n");
      // The trace is on stderr, `hi` on stdout: their order is not asserted.
      expect(traced[0]).toBe("exit code 0");
      expect(traced.slice(1).sort()).toEqual(["+ echo hi", "hi"]);
    });

    it("takes a command that starts with a dash as a command, not as bash's options", async () => {
      ws = await tempWorkspace();
      const lines = ws.text(await ws.call("shell", { command: "-v; echo ran" })).split("\n");
      expect(lines[0]).toBe("exit code 0");
      expect(lines.slice(1).sort()).toEqual(["/bin/bash: line 1: -v: command not found", "ran"]);
    });
  });

  it("scans /proc for what holds the output only while the output is still open", async () => {
    ws = await tempWorkspace();
    const scans = vi.mocked(outputHolders.endHolders);
    scans.mockClear();
    // The output is closed a second before bash exits: nothing can hold it, nothing is looked for.
    const closed = await ws.call("shell", { command: "exec >/dev/null 2>&1; sleep 1" });
    expect(ws.text(closed)).toBe("exit code 0\n(no output)");
    expect(scans).not.toHaveBeenCalled();
    // A job outside the group that holds it is still looked for, and found.
    const held = await ws.call("shell", {
      command:
        "(setsid env -i /bin/sh -c 'echo $$ > held.pid; exec sleep 28' &); while [ ! -s held.pid ]; do sleep 0.05; done; echo started",
    });
    const pid = await pidFrom(join(ws.dir, "held.pid"));
    expect(ws.text(held)).toBe("exit code 0\nstarted");
    expect(scans).toHaveBeenCalled();
    await waitFor(() => !processAlive(pid), `the held sleep ${pid} to end`);
  });

  it("keeps the head and the tail of long output with a note of what was left out", async () => {
    ws = await tempWorkspace();
    const text = ws.text(await ws.call("shell", { command: "seq 1 5000" }));
    const lines = text.split("\n");
    expect(lines.slice(0, 3)).toEqual(["exit code 0", "1", "2"]);
    expect(lines).toContain("… 4800 lines (23062 characters) left out …");
    expect(lines[lines.length - 1]).toBe("5000");
    expect(lines.length).toBeLessThan(210);
  });

  it("counts the lines of the middle it did not keep in the note (seq 1 200000)", async () => {
    ws = await tempWorkspace();
    const text = ws.text(await ws.call("shell", { command: "seq 1 200000" }));
    expect(text).toMatch(/\n80\n… 199800 lines \(\d+ characters\) left out …\n199881\n/);
  });

  it("kills the whole process group on timeout", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", {
      command: "sleep 30 & echo $! > sleep.pid; echo started; wait",
      timeout_seconds: 1,
    });
    expect(result.error?.code).toBe("TIMEOUT");
    expect(result.error?.message).toContain("timed out after 1 s");
    expect(result.error?.message).toContain("started");
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends a running sleep when the run is disposed", async () => {
    ws = await tempWorkspace();
    const pending = ws.call("shell", { command: "sleep 30 & echo $! > sleep.pid; wait" });
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    expect(processAlive(pid)).toBe(true);
    await ws.demo.dispose();
    const result = await pending;
    expect(result.error?.code).toBe("RUN_DISPOSED");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends the command when the call is cancelled", async () => {
    ws = await tempWorkspace();
    const controller = new AbortController();
    const pending = ws.demo.registry.invoke(ws.demo.run, {
      tool: "shell",
      args: { command: "sleep 30 & echo $! > sleep.pid; wait" },
      signal: controller.signal,
    });
    const pid = await pidFrom(join(ws.dir, "sleep.pid"));
    controller.abort();
    const result = await pending;
    expect(result.error?.code).toBe("CANCELLED");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends background processes the command leaves behind", async () => {
    ws = await tempWorkspace();
    const result = await ws.call("shell", { command: "sleep 30 & echo $!" });
    const pid = Number(ws.text(result).split("\n")[1]);
    expect(ws.text(result).split("\n")[0]).toBe("exit code 0");
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
  });

  it("ends a daemon the command double-forked out of its group and session", async () => {
    ws = await tempWorkspace();
    // The subshell exits at once: `sleep` is adopted by init, in a session of its own, with its
    // output on /dev/null: neither the group nor the parent ids lead to it, its mark does.
    const result = await ws.call("shell", {
      command: "(setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! > daemon.pid); echo started",
    });
    expect(ws.text(result)).toBe("exit code 0\nstarted");
    const pid = await pidFrom(join(ws.dir, "daemon.pid"));
    try {
      await waitFor(() => !processAlive(pid), `daemon ${pid} to end`);
      expect(processAlive(pid)).toBe(false);
    } finally {
      if (processAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("ends a daemon forked from a setsid shell, also when the first sweep meets it mid-exec (15 tries)", async () => {
    ws = await tempWorkspace();
    // `sh` forks `sleep` and exits at once: the sweep after bash exits can meet the daemon between
    // fork and exec, its environment unreadable for that instant (2 calls in 15 left it running).
    const sleepers = (seconds: string): number[] =>
      readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            return readFileSync(`/proc/${entry}/cmdline`, "utf8") === `sleep\0${seconds}\0`;
          } catch {
            return false;
          }
        })
        .map(Number)
        .filter(processAlive);
    const left: number[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const seconds = `${1000 + i}.${process.pid}`;
        const result = await ws.call("shell", {
          command: `(setsid sh -c "sleep ${seconds} &" &) ; echo started`,
        });
        expect(ws.text(result)).toBe("exit code 0\nstarted");
        await waitFor(
          () => sleepers(seconds).length === 0,
          `the daemon 'sleep ${seconds}' to end`,
          3000,
        ).catch(() => left.push(...sleepers(seconds)));
      }
      expect(left).toEqual([]);
    } finally {
      for (const pid of left) process.kill(pid, "SIGKILL");
    }
  });

  it("gives such a daemon SIGTERM first, so that it can shut down cleanly", async () => {
    ws = await tempWorkspace();
    const daemon =
      "(setsid sh -c 'trap \"echo stopped > stopped.txt; exit 0\" TERM; echo $$ > daemon.pid; sleep 300 & wait' </dev/null >/dev/null 2>&1 &)";
    const result = await ws.call("shell", {
      command: `${daemon}; while [ ! -s daemon.pid ]; do sleep 0.05; done; echo started`,
    });
    expect(ws.text(result)).toBe("exit code 0\nstarted");
    const pid = await pidFrom(join(ws.dir, "daemon.pid"));
    try {
      expect(await readFile(join(ws.dir, "stopped.txt"), "utf8")).toBe("stopped\n");
      await waitFor(() => !processAlive(pid), `daemon ${pid} to end`);
    } finally {
      if (processAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("is not on plan mode's surface, and runs one call at a time", async () => {
    ws = await tempWorkspace();
    expect((await ws.call("shell", { command: "true" }, "plan")).error?.code).toBe("TIER_EXCEEDED");
    const first = ws.call("shell", { command: "echo a >> order.txt; sleep 0.2; echo b >> order.txt" });
    const second = ws.call("shell", { command: "echo c >> order.txt" });
    await Promise.all([first, second]);
    expect(await ws.read("order.txt")).toBe("a\nb\nc\n");
  });

  describe("a process that left the group and dropped its environment but holds the output", () => {
    // The pid file is written from inside the new session, so once it exists the escape is done.
    // `env -i` drops the mark too: only the output pipe it inherited leads to it.
    const escape =
      "setsid env -i /bin/bash -c 'echo $$ > sleep.pid; exec sleep 25' & while [ ! -s sleep.pid ]; do sleep 0.05; done";
    // The same from a subshell that exits at once: the init process adopts it, so no parent id
    // leads to it either, also while bash still runs.
    const doubleForked =
      "(setsid env -i /bin/bash -c 'echo $$ > sleep.pid; exec sleep 25' &); while [ ! -s sleep.pid ]; do sleep 0.05; done";
    const escaped: number[] = [];
    afterEach(() => {
      for (const pid of escaped.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
    });

    it("is ended with the command, which answers with its whole output and no note", async () => {
      ws = await tempWorkspace();
      const result = await Promise.race([
        ws.call("shell", { command: `${escape}; echo started`, timeout_seconds: 5 }),
        settleWithin(8000),
      ]);
      escaped.push(await pidFrom(join(ws.dir, "sleep.pid")));
      expect(result).not.toBe("pending");
      expect(ws.text(result as ToolResult)).toBe("exit code 0\nstarted");
      await waitFor(() => !processAlive(escaped[0]!), `the escaped sleep ${escaped[0]} to end`);
      // The lane is free again.
      expect(ws.text(await ws.call("shell", { command: "echo hi" }))).toBe("exit code 0\nhi");
    });

    it("is ended with its own process group, also one that holds only stderr after a double fork", async () => {
      ws = await tempWorkspace();
      // The holder leads a session and group of its own; the sleep it starts holds nothing of
      // the command's (all redirected), and is reached through the holder's group only.
      const command =
        "(setsid env -i /bin/sh -c 'sleep 26 </dev/null >/dev/null 2>&1 & echo $! > inner.pid; echo $$ > outer.pid; exec sleep 27' >/dev/null &); " +
        "while [ ! -s outer.pid ]; do sleep 0.05; done; echo started";
      const result = await Promise.race([ws.call("shell", { command }), settleWithin(8000)]);
      const outer = await pidFrom(join(ws.dir, "outer.pid"));
      const inner = await pidFrom(join(ws.dir, "inner.pid"));
      escaped.push(outer, inner);
      expect(result).not.toBe("pending");
      expect(ws.text(result as ToolResult)).toBe("exit code 0\nstarted");
      await waitFor(() => !processAlive(outer) && !processAlive(inner), "both escaped sleeps to end");
    });

    it("is ended on timeout and when the run is disposed, and both still end the call in bounded time", async () => {
      ws = await tempWorkspace();
      const timedOut = await Promise.race([
        ws.call("shell", { command: `${doubleForked}; sleep 30`, timeout_seconds: 1 }),
        settleWithin(8000),
      ]);
      escaped.push(await pidFrom(join(ws.dir, "sleep.pid")));
      expect(timedOut).not.toBe("pending");
      expect((timedOut as ToolResult).error?.code).toBe("TIMEOUT");
      await waitFor(
        () => !processAlive(escaped[0]!),
        `the escaped sleep ${escaped[0]} to end after the timeout`,
      );

      await rm(join(ws.dir, "sleep.pid"));
      const pending = ws.call("shell", { command: `${doubleForked}; sleep 30` });
      escaped.push(await pidFrom(join(ws.dir, "sleep.pid")));
      await ws.demo.dispose();
      const disposed = await Promise.race([pending, settleWithin(5000)]);
      expect(disposed).not.toBe("pending");
      expect((disposed as ToolResult).error?.code).toBe("RUN_DISPOSED");
      // dispose itself ends it: no wait after it.
      expect(processAlive(escaped[1]!)).toBe(false);
    });
  });

  it("leaves alone a process that was running before the command, though the command handed it its output", async () => {
    ws = await tempWorkspace();
    // A server started before the command (as a shared tmux server is) is given the command's
    // stdout over a Unix socket (SCM_RIGHTS) and keeps it: it holds the pipe, yet it is not the
    // command's, and it must survive the call. The call then says the output is still held.
    const socket = join(ws.dir, "fd.sock");
    const server = spawn(
      "python3",
      [
        "-c",
        [
          "import socket, sys, time",
          "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); print('ready', flush=True)",
          "c, _ = s.accept(); msg, fds, _, _ = socket.recv_fds(c, 16, 4); print('got', len(fds), flush=True)",
          "time.sleep(60)",
        ].join("\n"),
        socket,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const lines: string[] = [];
      server.stdout.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n")));
      await waitFor(() => lines.includes("ready"), "the fd server to listen");
      const send = `python3 -c "import socket, sys; c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1]); socket.send_fds(c, [b'x'], [1])" ${JSON.stringify(socket)}`;
      const result = await ws.call("shell", { command: `${send}; echo sent` });
      // Said how the server ended, should it have: what stopped it is what a failure needs.
      await waitFor(() => lines.includes("got 1"), "the fd server to get the output", 15_000).catch(
        (error: Error) => {
          throw new Error(
            `${error.message}; it printed ${JSON.stringify(lines)}, exit ${server.exitCode} signal ${server.signalCode}; the call answered ${JSON.stringify(ws.text(result))}`,
          );
        },
      );
      expect(ws.text(result)).toMatch(
        /^exit code 0\nsent\n\(another process still holds the command's output open and was not ended/,
      );
      expect(processAlive(server.pid!)).toBe(true);
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("stops owning a command once its process group is gone, so dispose signals no reused pid", async () => {
    ws = await tempWorkspace();
    const run = ws.demo.run;
    const ownProcess = run.ownProcess.bind(run);
    const disowned: number[] = [];
    vi.spyOn(run, "ownProcess").mockImplementation((child, options) => {
      const disown = ownProcess(child, options);
      return () => {
        disowned.push(child.pid ?? 0);
        disown();
      };
    });
    const pids: number[] = [];
    for (let index = 0; index < 3; index++) {
      const result = await ws.call("shell", { command: "sleep 5 & echo $$" });
      pids.push(Number(ws.text(result).split("\n")[1]));
    }
    await waitFor(() => disowned.length === 3, "the three finished shells to be disowned");
    expect([...disowned].sort((a, b) => a - b)).toEqual([...pids].sort((a, b) => a - b));
    const kill = vi.spyOn(process, "kill");
    try {
      await ws.demo.dispose();
      expect(kill.mock.calls.filter(([pid]) => pids.includes(-pid) || pids.includes(pid))).toEqual([]);
    } finally {
      kill.mockRestore();
    }
  });
});

/** Resolves "pending" after `ms`: a race against it bounds a call that might never settle. */
function settleWithin(ms: number): Promise<"pending"> {
  return new Promise((resolve) => setTimeout(() => resolve("pending"), ms).unref());
}
