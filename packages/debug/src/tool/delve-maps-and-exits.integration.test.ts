import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descendantsOf, signalProcesses } from "@tools/registry";
import { ci, debugRun, remaining, removeWorkspace, type Call } from "../__fixtures__/harness.js";
import { dlv } from "../__fixtures__/backends.js";

if (!dlv && !ci) console.warn("SKIPPING delve tests: dlv or go is not on PATH (apt install delve golang-go)");

/** Asks `status` until `done` holds for its text, at most `ms` (every 100 ms); returns the last text. */
async function statusUntil(
  call: (args: Record<string, unknown>) => Promise<Call>,
  done: (text: string) => boolean,
  ms: number,
): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { text } = await call({ op: "status" });
    if (done(text) || Date.now() >= deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!dlv && !ci)("debug tool on delve: maps, and a program killed while stopped", () => {
  let dir: string;
  const source = [
    "package main",
    "",
    'import "fmt"',
    "",
    "func main() {",
    '\tsmall := map[string]int{"len()": 7}',
    "\tm := map[string]int{}",
    "\tfor i := 0; i < 120; i++ {",
    '\t\tm[fmt.Sprintf("k%d", i)] = i',
    "\t}",
    "\tfmt.Println(len(m), len(small))",
    "}",
    "",
  ].join("\n");
  beforeAll(() => {
    expect(dlv, "dlv and go must be on PATH").toBeTruthy();
    dir = mkdtempSync(join(tmpdir(), "tools-debug-gomap-"));
    writeFileSync(join(dir, "go.mod"), "module maps\n\ngo 1.19\n");
    writeFileSync(join(dir, "main.go"), source);
  });
  afterAll(() => removeWorkspace(dir));

  it(
    "launches a link without an extension to a .go file by building the file's package",
    { timeout: 180_000 },
    async () => {
      // Before, delve was given the link itself as the package to build, and the build failed.
      symlinkSync("main.go", join(dir, "run"));
      const { run, call } = debugRun(dir);
      try {
        await call({ op: "breakpoints", file: "main.go", lines: [11] });
        const launch = await call({ op: "launch", program: "run" });
        expect(launch.isError, launch.text).toBe(false);
        expect(launch.text).toContain("main.go:11 in main.main");
      } finally {
        await run.dispose();
      }
    },
  );

  it(
    "counts a map by its length, without delve's len() entry as an item; a key named len() is an item",
    { timeout: 180_000 },
    async () => {
      const { run, call, sessionPids } = debugRun(dir);
      let pids: number[] = [];
      try {
        await call({ op: "breakpoints", file: "main.go", lines: [11] });
        const launch = await call({ op: "launch", program: "." });
        expect(launch.isError, launch.text).toBe(false);
        expect(launch.text).toContain("main.go:11 in main.main");
        pids = sessionPids();

        const m = await call({ op: "evaluate", expression: "m" });
        const big = await call({
          op: "variables",
          reference: Number(/\[reference (\d+)\]/.exec(m.text)![1]),
        });
        expect(big.isError, big.text).toBe(false);
        // delve sends `len() (int) = 120` (evaluate name `len(m)`) among the first 64 keys it loads.
        expect(big.text).not.toContain("len()");
        expect(big.text.split("\n").filter((line) => /^"k\d+" /.test(line))).toHaveLength(50);
        expect(big.text).toContain("… 70 more: 50 of 120 shown");

        const small = await call({ op: "evaluate", expression: "small" });
        const one = await call({
          op: "variables",
          reference: Number(/\[reference (\d+)\]/.exec(small.text)![1]),
        });
        expect(one.text).toBe('"len()" (string: int) = 7');
      } finally {
        await run.dispose();
      }
      expect(remaining(pids)).toEqual([]);
    },
  );

  it(
    "notices a program SIGKILLed while stopped, and says it was killed by the signal",
    { timeout: 180_000 },
    async () => {
      const { run, call, supervisor, sessionPids } = debugRun(dir);
      let pids: number[] = [];
      try {
        await call({ op: "breakpoints", file: "main.go", lines: [11] });
        const launch = await call({ op: "launch", program: "." });
        expect(launch.isError, launch.text).toBe(false);
        expect(launch.text).toContain("main.go:11 in main.main");
        pids = sessionPids();
        const adapter = supervisor.conversation("conv-1").session!.adapterPid!;
        // The program is delve's child (delve sends no `process` event naming it).
        const program = descendantsOf(adapter, 1);
        expect(program).toHaveLength(1);
        expect(signalProcesses(program, "SIGKILL")).toBe(1);

        // Until the session notices (it looks every 250 ms, then gives the adapter 1 s to say it).
        const status = await statusUntil(call, (text) => text.startsWith("no debug session"), 15_000);
        expect(status).toContain("ended because the program was killed by signal SIGKILL (9)");
        const resumed = await call({ op: "continue" });
        expect(resumed.code).toBe("DEBUG_NO_SESSION");
        expect(resumed.text).not.toContain("pause");
      } finally {
        await run.dispose();
      }
      // Nothing runs on, and no zombie is left: delve does not reap the killed program, so it
      // runs under the reaper shim, which does once delve is gone (where PID 1 does not reap, as in
      // containers, it stayed a zombie for good).
      expect(remaining(pids)).toEqual([]);
    },
  );
});
