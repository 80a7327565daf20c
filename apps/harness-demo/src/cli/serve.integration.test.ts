import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { cliPath, ServeSession } from "../__fixtures__/cli-process.js";
import { processAlive, waitFor } from "../__fixtures__/wait-for.js";

let dir: string;
let session: ServeSession | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-serve-")));
  await writeFile(join(dir, "hello.txt"), "hello\nworld\n");
});

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("harness-demo serve (JSON lines)", () => {
  it("answers calls, refusals and bad lines, one JSON response per line, and exits 0 at end of input", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);

    const read = await session.call({ id: 1, surface: "main", tool: "read", args: { path: "hello.txt" } });
    expect(read).toEqual({
      id: 1,
      ok: true,
      content: [{ type: "text", text: "1\thello\n2\tworld" }],
      error: null,
    });

    const unknown = await session.call({ id: "u", surface: "main", tool: "raed", args: {} });
    expect(unknown).toMatchObject({ id: "u", ok: false });
    expect(unknown["error"]).toContain("unknown tool 'raed' (did you mean 'read'?)");
    expect(unknown["content"]).toEqual([{ type: "text", text: unknown["error"] }]);

    const tier = await session.call({
      id: 2,
      surface: "plan",
      tool: "write",
      args: { path: "a", content: "" },
    });
    expect(tier).toMatchObject({ ok: false, error: "write is a write tool; plan mode sees read tools only" });

    const escape = await session.call({ id: 3, tool: "read", args: { path: "../../etc/passwd" } });
    expect(escape["ok"]).toBe(false);
    expect(escape["error"]).toContain("outside the working directory");

    const write = await session.call({ id: 4, tool: "write", args: { path: "new.txt", content: "x\n" } });
    expect(write["ok"]).toBe(true);
    expect(await readFile(join(dir, "new.txt"), "utf8")).toBe("x\n");

    const worker = await session.call({ id: 6, surface: "worker", tool: "shell", args: { command: "true" } });
    expect(worker["ok"]).toBe(false);
    expect(worker["error"]).toContain("called by a background worker) needs approval");

    const surface = await session.call({ id: 7, surface: "nope", tool: "read", args: { path: "hello.txt" } });
    expect(surface["error"]).toContain(
      "unknown surface 'nope'; known surfaces: main, plan, readonly, worker",
    );

    const invalid = await session.call({ id: 8, tool: "read", args: { pth: "hello.txt" } });
    expect(invalid["error"]).toContain("unknown argument 'pth' (did you mean 'path'?)");

    session.sendLine("{not json");
    const malformed = await session.response((response) => response["id"] === null);
    expect(malformed).toMatchObject({ id: null, ok: false });
    expect(malformed["content"]).toEqual([{ type: "text", text: malformed["error"] }]);
    expect(malformed["error"]).toContain("not valid JSON");

    const noTool = await session.call({ id: 5, args: {} });
    expect(noTool["error"]).toContain('"tool" must be a non-empty string');

    // Every text part is {type, text}; these tools return no image parts.
    for (const response of session.responses) {
      expect(Object.keys(response).sort()).toEqual(["content", "error", "id", "ok"]);
      for (const part of response["content"] as Record<string, unknown>[]) {
        expect(Object.keys(part).sort()).toEqual(["text", "type"]);
        expect(part["type"]).toBe("text");
      }
    }

    expect(await session.close()).toBe(0);
    expect(session.stray).toEqual([]);
  });

  it("denies write and exec fail-closed under --approval ask, saying how to attach an approver", async () => {
    session = new ServeSession(["--workdir", dir]);
    const write = await session.call({
      id: 1,
      surface: "main",
      tool: "write",
      args: { path: "a.txt", content: "x" },
    });
    expect(write["ok"]).toBe(false);
    expect(write["error"]).toContain("no approver is attached");
    expect(write["error"]).toContain("--approval auto");
    const read = await session.call({ id: 2, surface: "main", tool: "read", args: { path: "hello.txt" } });
    expect(read["ok"]).toBe(true);
    expect(await session.close()).toBe(0);
  });

  it("handles requests concurrently: a read answers while a shell call is still running", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);
    session.sendLine(
      JSON.stringify({
        id: "slow",
        tool: "shell",
        args: { command: "while [ ! -f go ]; do sleep 0.05; done; echo released", timeout_seconds: 20 },
      }),
    );
    const read = await session.call({ id: "fast", tool: "read", args: { path: "hello.txt" } });
    expect(read["ok"]).toBe(true);
    expect(session.responses.some((response) => response["id"] === "slow")).toBe(false);
    await writeFile(join(dir, "go"), "");
    const slow = await session.response((response) => response["id"] === "slow");
    expect(JSON.stringify(slow["content"])).toContain("released");
    expect(await session.close()).toBe(0);
  });

  it("at end of input still answers the calls in flight before exiting 0", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);
    session.sendLine(
      JSON.stringify({ id: "last", tool: "shell", args: { command: "sleep 0.3; echo late" } }),
    );
    expect(await session.close()).toBe(0);
    const last = session.responses.find((response) => response["id"] === "last");
    expect(last?.["ok"]).toBe(true);
    expect(JSON.stringify(last?.["content"])).toContain("late");
  });

  it("after end of input, ends at once when the process that started it is gone, killing what its calls run", async () => {
    // A parent shell pipes one call in (a command that would run a minute) and ends its input;
    // then the parent dies: nobody is left to read the answer.
    const request = JSON.stringify({
      id: 1,
      tool: "shell",
      args: { command: "sleep 60 & echo $! > sleep.pid; wait", timeout_seconds: 600 },
    });
    const parentScript = [
      'const { spawn } = require("node:child_process");',
      'const { writeFileSync } = require("node:fs");',
      'const child = spawn(process.execPath, [process.env.CLI, "serve", "--workdir", process.env.DIR, "--approval", "auto"], { stdio: ["pipe", "ignore", "ignore"] });',
      'child.stdin.end(process.env.REQUEST + "\\n");',
      'writeFileSync("serve.pid", String(child.pid));',
      "setInterval(() => {}, 1000);",
    ].join("\n");
    const parent = spawn(process.execPath, ["-e", parentScript], {
      cwd: dir,
      env: { ...process.env, REQUEST: request, CLI: cliPath, DIR: dir },
      stdio: "ignore",
    });
    const pidFrom = async (name: string) => {
      await waitFor(
        async () => (await readFile(join(dir, name), "utf8").catch(() => "")).trim() !== "",
        name,
        30_000,
      );
      return Number((await readFile(join(dir, name), "utf8")).trim());
    };
    const serve = await pidFrom("serve.pid");
    const sleep = await pidFrom("sleep.pid");
    try {
      expect([processAlive(serve), processAlive(sleep)]).toEqual([true, true]);
      parent.kill("SIGKILL");
      await waitFor(() => !processAlive(serve), "serve to notice its parent is gone", 20_000);
      await waitFor(() => !processAlive(sleep), `sleep ${sleep} to end with the run`, 10_000);
      expect([processAlive(serve), processAlive(sleep)]).toEqual([false, false]);
    } finally {
      for (const pid of [serve, sleep].filter(processAlive)) process.kill(pid, "SIGKILL");
    }
  }, 60_000);

  it("on SIGTERM disposes the run, killing running commands, and exits 0", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);
    session.sendLine(
      JSON.stringify({ id: 1, tool: "shell", args: { command: "sleep 30 & echo $! > sleep.pid; wait" } }),
    );
    const pidFile = join(dir, "sleep.pid");
    // serve starts first (every package of the run is loaded): on a loaded machine, seconds.
    await waitFor(
      async () => (await readFile(pidFile, "utf8").catch(() => "")).trim() !== "",
      "sleep.pid",
      30_000,
    );
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(processAlive(pid)).toBe(true);
    session.child.kill("SIGTERM");
    expect(await session.waitExit()).toBe(0);
    await waitFor(() => !processAlive(pid), `sleep ${pid} to end`);
    expect(processAlive(pid)).toBe(false);
    expect(session.stray).toEqual([]);
  }, 60_000);

  it("when SIGKILLed, leaves nothing its commands and interpreters started: the reaper ends them", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);
    // A JavaScript interpreter that started a detached process, and a command still running
    // with a job in its group and a daemon in a session of its own: nobody is left to dispose
    // the run, and only the host's reaper can end them.
    const started = await session.call(
      {
        id: "js",
        tool: "eval",
        args: {
          language: "javascript",
          description: "start a detached sleep process in the background",
          code: "require('node:child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }).pid",
        },
      },
      60_000,
    );
    expect(started["ok"], JSON.stringify(started)).toBe(true);
    const detached = Number(/(\d+)/.exec(JSON.stringify(started["content"]))?.[1]);
    session.sendLine(
      JSON.stringify({
        id: "sh",
        tool: "shell",
        args: {
          command:
            "sleep 300 & echo $! > job.pid; (setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > daemon.pid); wait",
        },
      }),
    );
    const pidFrom = async (name: string) => {
      await waitFor(
        async () => (await readFile(join(dir, name), "utf8").catch(() => "")).trim() !== "",
        name,
      );
      return Number((await readFile(join(dir, name), "utf8")).trim());
    };
    const pids = [detached, await pidFrom("job.pid"), await pidFrom("daemon.pid")];
    try {
      expect(pids.map(processAlive)).toEqual([true, true, true]);
      session.child.kill("SIGKILL");
      await session.waitExit();
      await waitFor(
        () => pids.every((pid) => !processAlive(pid)),
        "the reaper to end what the host left",
        10_000,
      );
      expect(pids.filter(processAlive)).toEqual([]);
    } finally {
      for (const pid of pids.filter(processAlive)) process.kill(pid, "SIGKILL");
    }
  });
});
