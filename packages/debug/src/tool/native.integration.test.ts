import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath, findVersioned } from "../adapters/find-binary.js";
import { remaining, ci, debugRun, removeWorkspace, workspace } from "../__fixtures__/harness.js";

const searchPath = process.env.PATH ?? "";
const dlv = findOnPath("dlv", searchPath) && findOnPath("go", searchPath);
const lldb = findVersioned("lldb-dap", searchPath) && findOnPath("cc", searchPath);
if (!dlv && !ci) console.warn("SKIPPING delve tests: dlv or go is not on PATH (apt install delve golang-go)");
if (!lldb && !ci)
  console.warn("SKIPPING lldb tests: lldb-dap(-NN) or cc is not on PATH (apt install lldb-19 gcc)");

describe.skipIf(!dlv && !ci)("debug tool on delve", () => {
  let dir: string;
  beforeAll(() => {
    expect(dlv, "dlv and go must be on PATH").toBeTruthy();
    dir = workspace("go");
  });
  afterAll(() => removeWorkspace(dir));

  it(
    "builds, stops on a breakpoint, shows stack and variables, runs to the exit",
    { timeout: 180_000 },
    async () => {
      const { run, call, sessionPids, supervisor } = debugRun(dir);
      let pids: number[] = [];
      try {
        await call({ op: "breakpoints", file: "main.go", lines: [11] });
        const launch = await call({ op: "launch", program: "." });
        expect(launch.isError, launch.text).toBe(false);
        expect(launch.text).toContain("line 11: verified");
        expect(launch.text).toContain("stopped (breakpoint)");
        expect(launch.text).toContain("main.go:11 in main.total");
        pids = sessionPids();
        expect(pids.length).toBeGreaterThan(1);

        const stack = await call({ op: "stack" });
        expect(stack.text).toMatch(/#1 frame \d+ main\.main at main\.go:18/);
        const frame = Number(/#0 frame (\d+)/.exec(stack.text)![1]);
        const scopes = await call({ op: "scopes", frame_id: frame });
        const locals = Number(/Locals: reference (\d+)/.exec(scopes.text)![1]);
        const variables = await call({ op: "variables", reference: locals });
        expect(variables.text).toMatch(/xs \(\[\]int\) = .*\[1,2,3\]/);
        expect(variables.text).toMatch(/x \(int\) = 1/);
        const evaluated = await call({ op: "evaluate", expression: "x + 100", frame_id: frame });
        expect(evaluated.text).toContain("101");

        await call({ op: "breakpoints", file: "main.go", lines: [] });
        const done = await call({ op: "continue" });
        expect(done.text).toContain("exited with code 4");
        const output = await call({ op: "output" });
        expect(output.text).toContain("result 6");
        // The build went to a temporary path, removed with the session: nothing left in the project.
        expect(readdirSync(dir).sort()).toEqual(["go.mod", "main.go"]);
        expect(supervisor.conversation("conv-1").session).toBeUndefined();
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    },
  );
});

describe.skipIf(!dlv && !ci)("debug tool attached to a headless delve", () => {
  let dir: string;
  let out: string;
  beforeAll(() => {
    expect(dlv, "dlv and go must be on PATH").toBeTruthy();
    dir = workspace("go");
    out = mkdtempSync(join(tmpdir(), "tools-debug-dlv-headless-"));
  });
  afterAll(() => {
    removeWorkspace(dir);
    rmSync(out, { recursive: true, force: true });
  });

  it("attaches by port (mode remote), stops on a breakpoint and detaches", { timeout: 180_000 }, async () => {
    const { run, call } = debugRun(dir);
    const headless = spawn(
      "dlv",
      ["debug", "--headless", "--listen", "127.0.0.1:0", "--output", join(out, "bin"), "."],
      { cwd: dir, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    run.ownProcess(headless, { group: true, graceMs: 500 });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let text = "";
        const timer = setTimeout(() => reject(new Error(`dlv printed no address: ${text}`)), 150_000);
        headless.stdout!.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const match = /listening at: [\d.]+:(\d+)/.exec(text);
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        });
      });
      await call({ op: "breakpoints", file: "main.go", lines: [11] });
      const attach = await call({ op: "attach", port });
      expect(attach.isError, attach.text).toBe(false);
      expect(attach.text).toContain("delve: attached to port");
      expect(attach.text).toContain("stopped (breakpoint)");
      expect(attach.text).toContain("main.go:11 in main.total");
      const evaluated = await call({ op: "evaluate", expression: "s + 100" });
      expect(evaluated.text).toContain("100");
      const terminated = await call({ op: "terminate" });
      expect(terminated.isError, terminated.text).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(["go.mod", "main.go"]);
    } finally {
      await run.dispose();
    }
    expect(remaining([headless.pid!])).toEqual([]);
  });
});

describe.skipIf(!lldb && !ci)("debug tool on lldb-dap", () => {
  let dir: string;
  beforeAll(() => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    dir = workspace("c");
    execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
  });
  afterAll(() => removeWorkspace(dir));

  it("stops on a breakpoint in a C program, shows the stack, continues to the exit", async () => {
    const { run, call, sessionPids } = debugRun(dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "prog.c", lines: [4] });
      const launch = await call({ op: "launch", program: "prog" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("stopped (breakpoint)");
      expect(launch.text).toContain("prog.c:4 in square");
      pids = sessionPids();
      expect(pids.length).toBeGreaterThan(1);

      const stack = await call({ op: "stack" });
      expect(stack.text).toMatch(/#0 frame \d+ square at prog\.c:4/);
      expect(stack.text).toMatch(/#1 frame \d+ main at prog\.c:11/);
      const frame = Number(/#0 frame (\d+)/.exec(stack.text)![1]);
      const evaluated = await call({ op: "evaluate", expression: "n + 100", frame_id: frame });
      expect(evaluated.text).toContain("100");

      const pause = await call({ op: "pause" });
      expect(pause.text).toContain("already stopped");

      const next = await call({ op: "continue" });
      expect(next.text).toContain("stopped (breakpoint)");
      await call({ op: "breakpoints", file: "prog.c", lines: [] });
      const done = await call({ op: "continue" });
      expect(done.text).toContain("exited with code 5");
      const output = await call({ op: "output" });
      expect(output.text).toContain("sum 5");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});
