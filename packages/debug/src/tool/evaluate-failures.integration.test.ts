import { describe, expect, it } from "vitest";
import {
  atBreakpoint,
  ci,
  debugRun,
  makeVenv,
  remaining,
  removeWorkspace,
  workspace,
} from "../__fixtures__/harness.js";
import { inLldbSquare } from "../__fixtures__/lldb-square.js";
import { dlv, lldb, python } from "../__fixtures__/backends.js";

const stillStopped =
  "The program is still stopped where it was, and this stop's frame ids and references still hold: " +
  "correct the expression and evaluate it again, or step or continue.";

// An expression that fails in the program's language was answered as the adapter refusing
// evaluate ("the adapter refused evaluate: Traceback (most recent call last): …", code
// DEBUG_ADAPTER_ERROR). It is the expression's failure: its own code, the language's error
// first, and what holds now (the program is stopped where it was).
describe.skipIf(!python && !ci)("evaluate of a failing expression on debugpy", () => {
  it(
    "gives the language's error and says the program is still stopped there",
    { timeout: 120_000 },
    async () => {
      const dir = workspace("python");
      makeVenv(dir);
      const stop = { file: "app.py", lines: [6], program: "app.py", where: "app.py:6 in compute" };
      await atBreakpoint(dir, stop, async (call) => {
        const failed = await call({ op: "evaluate", expression: "undefined_name + 1" });
        expect(failed.code).toBe("DEBUG_EVALUATE_FAILED");
        expect(failed.text).toBe(
          `the expression "undefined_name + 1" failed in compute (app.py:6): NameError: name 'undefined_name' is not defined\n${stillStopped}`,
        );

        // An error raised in the user's code the expression called: the user's frame shows where,
        // its path relative to the working directory as frames are shown elsewhere (not the
        // temporary folder's absolute path).
        const called = await call({ op: "evaluate", expression: "compute(None)" });
        expect(called.code).toBe("DEBUG_EVALUATE_FAILED");
        const lines = called.text.split("\n");
        expect(lines[0]).toBe(
          `the expression "compute(None)" failed in compute (app.py:6): TypeError: 'NoneType' object is not iterable`,
        );
        expect(lines.slice(1, -1)).toEqual([
          '    File "app.py", line 5, in compute',
          "      for v in values:",
        ]);

        // A syntax error keeps the caret under its place, without the frame of the expression itself.
        const syntax = await call({ op: "evaluate", expression: "def g(:" });
        expect(syntax.code).toBe("DEBUG_EVALUATE_FAILED");
        expect(syntax.text).toMatch(
          /^the expression "def g\(:" failed in compute \(app\.py:6\): SyntaxError: /,
        );
        expect(syntax.text).toContain("def g(:\n");
        expect(syntax.text).not.toContain("<string>");

        // An exception whose message has indented lines of its own is taken whole, not cut at them.
        const several = await call({
          op: "evaluate",
          expression: "(_ for _ in ()).throw(ValueError('first\\n  indented\\nlast'))",
        });
        expect(several.code).toBe("DEBUG_EVALUATE_FAILED");
        expect(several.text).toMatch(
          / failed in compute \(app\.py:6\): ValueError: first\n {2}indented\nlast\n/,
        );

        // It is so: the stop's frame ids still answer, and the next evaluate too.
        const stack = await call({ op: "stack" });
        const frame = Number(/#0 frame (\d+)/.exec(stack.text)![1]);
        expect((await call({ op: "scopes", frame_id: frame })).isError).toBe(false);
        expect((await call({ op: "evaluate", expression: "total + 1" })).text).toBe("1 (int)");
        // In a frame given by id: that frame is named.
        const main = Number(/#1 frame (\d+)/.exec(stack.text)![1]);
        const inMain = await call({ op: "evaluate", expression: "values", frame_id: main });
        expect(inMain.text.split("\n")[0]).toBe(
          `the expression "values" failed in main (app.py:12): NameError: name 'values' is not defined`,
        );
      });
    },
  );

  it("still refuses an evaluate while the program runs, as not stopped", { timeout: 120_000 }, async () => {
    const dir = workspace("python");
    makeVenv(dir);
    const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 500 });
    let pids: number[] = [];
    try {
      const launch = await call({ op: "launch", program: "loop.py" });
      expect(launch.text).toContain("still running");
      pids = sessionPids();
      const evaluated = await call({ op: "evaluate", expression: "undefined_name + 1" });
      expect(evaluated.code).toBe("DEBUG_NOT_STOPPED");
    } finally {
      await run.dispose();
      removeWorkspace(dir);
    }
    expect(remaining(pids)).toEqual([]);
  });
});

describe.skipIf(!lldb && !ci)("evaluate of a failing expression on lldb-dap", () => {
  it("gives lldb's error with its caret and says the program is still stopped there", async () => {
    await inLldbSquare(async (_session, call) => {
      const failed = await call({ op: "evaluate", expression: "undefined_name + 1" });
      expect(failed.code).toBe("DEBUG_EVALUATE_FAILED");
      expect(failed.text).toBe(
        [
          `the expression "undefined_name + 1" failed in square (prog.c:4): use of undeclared identifier 'undefined_name'`,
          "      1 | undefined_name + 1",
          "        | ^",
          stillStopped,
        ].join("\n"),
      );
      expect((await call({ op: "evaluate", expression: "n * 10" })).text).toBe("0 (int)");
    });
  });
});

describe.skipIf(!dlv && !ci)("evaluate of a failing expression on delve", () => {
  it("gives delve's error and says the program is still stopped there", { timeout: 180_000 }, async () => {
    const stop = { file: "main.go", lines: [11], program: ".", where: "main.go:11 in main.total" };
    await atBreakpoint(workspace("go"), stop, async (call) => {
      const failed = await call({ op: "evaluate", expression: "undefined_name + 1" });
      expect(failed.code).toBe("DEBUG_EVALUATE_FAILED");
      expect(failed.text).toBe(
        `the expression "undefined_name + 1" failed in main.total (main.go:11): could not find symbol value for undefined_name\n${stillStopped}`,
      );
      expect((await call({ op: "evaluate", expression: "x + 100" })).text).toBe("101 (int)");
    });
  });
});
