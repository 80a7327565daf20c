import { describe, expect, it } from "vitest";
import { atBreakpoint, ci, goModule, makeVenv, workspace, type Call } from "../__fixtures__/harness.js";
import { inLldbSquare } from "../__fixtures__/lldb-square.js";
import { dlv, lldb, python } from "../__fixtures__/backends.js";

/** A `stack` of a thread id the program does not have, refused naming the program's threads. */
async function expectRefused(call: (args: Record<string, unknown>) => Promise<Call>, threads: RegExp) {
  const answer = await call({ op: "stack", thread_id: 999 });
  expect(answer.isError, answer.text).toBe(true);
  expect(answer.code).toBe("DEBUG_BAD_ARGUMENTS");
  expect(answer.text).toContain("thread 999 is not a thread of the program");
  expect(answer.text).toMatch(threads);
  // The stop is as it was: its own stack is listed.
  const own = await call({ op: "stack" });
  expect(own.isError, own.text).toBe(false);
  expect(own.text).toContain("#0 frame");
}

// A `stack` with a thread_id the program does not have: lldb-dap answered an empty stack, which
// the tool showed as a thread with no frames ("thread 999" and nothing else), and debugpy and
// delve refused it in their own words ("Wrong ID sent from the client", "unknown goroutine");
// a step with the same thread_id was refused naming the program's threads.
describe("debug tool: a stack of a thread the program does not have", () => {
  it.skipIf(!lldb && !ci)(
    "is refused naming the threads on lldb-dap (it answered an empty stack)",
    async () => {
      await inLldbSquare(async (_session, call) => {
        await expectRefused(call, /its threads: \d+ \(prog\)/);
      });
    },
  );

  it.skipIf(!python && !ci)("is refused naming the threads on debugpy", { timeout: 120_000 }, async () => {
    const dir = workspace("python");
    makeVenv(dir);
    await atBreakpoint(
      dir,
      { file: "app.py", lines: [6], program: "app.py", where: "app.py:6 in compute" },
      async (call) => expectRefused(call, /its threads: 1 \(MainThread\)/),
    );
  });

  it.skipIf(!dlv && !ci)("is refused naming the goroutines on delve", { timeout: 180_000 }, async () => {
    const dir = goModule("threads", [
      "package main",
      "",
      "func main() {",
      "\tn := 3",
      "\tprintln(n)",
      "}",
      "",
    ]);
    await atBreakpoint(
      dir,
      { file: "main.go", lines: [5], program: ".", where: "main.go:5 in main.main" },
      async (call) => expectRefused(call, /its threads: 1 \(\* \[Go 1\] main\.main/),
    );
  });
});
