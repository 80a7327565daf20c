import { resultText as resultTextOf } from "@tools/registry";
import {
  callStep,
  succeededWith,
  expectText,
  sequenceStep,
  type RecordedCall,
  type TourSection,
} from "./tour-step.js";

/** `#0 frame N` and `Locals: reference N` out of the tool's text. */
function number(text: string, pattern: RegExp, what: string): number {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`no ${what} in the result`);
  return Number(found);
}

/** Stack, the locals of the top frame, and an expression evaluated there. */
async function inspect(
  call: RecordedCall,
  expectStack: RegExp,
  expectLocals: RegExp,
  expression: string,
  value: string,
) {
  const stack = expectText(await call("debug", { op: "stack" }), expectStack);
  const frame = number(stack, /#0 frame (\d+)/, "top frame");
  const scopes = expectText(await call("debug", { op: "scopes", frame_id: frame }), /Locals: reference \d+/);
  const locals = number(scopes, /Locals: reference (\d+)/, "locals reference");
  expectText(await call("debug", { op: "variables", reference: locals }), expectLocals);
  expectText(await call("debug", { op: "evaluate", expression, frame_id: frame }), value);
}

/** Part 5: the debug tool over the Debug Adapter Protocol. */
export const debugTourSection: TourSection = {
  title: "debug: Python with debugpy, Go with delve",
  steps: [
    callStep(
      "adapters: per language, root marker, binary, usable or why not (no Dart SDK here)",
      { tool: "debug", args: { op: "adapters" } },
      (result) => {
        const verdict = succeededWith("debugpy")(result);
        if (verdict !== true) return verdict;
        return /no 'dart' on PATH/.test(resultTextOf(result))
          ? true
          : "the Dart adapter does not say why it is unusable";
      },
    ),
    sequenceStep(
      "Python: breakpoint, launch, stack, variables, evaluate, step, continue to the exit",
      async (call) => {
        expectText(
          await call("debug", { op: "breakpoints", file: "python/stats.py", lines: [7] }),
          "7 pending",
        );
        expectText(
          await call("debug", { op: "launch", program: "python/report.py" }),
          /stopped \(breakpoint\)[\s\S]*stats\.py:7 in total/,
        );
        await inspect(
          call,
          /#1 frame \d+ main at .*report\.py:8/,
          /values \(list\) = \[120, 80, 200\]/,
          "running + value * 2",
          "240",
        );
        expectText(await call("debug", { op: "step_over" }), "stopped (step)");
        expectText(await call("debug", { op: "breakpoints", file: "python/stats.py", lines: [] }), "cleared");
        expectText(await call("debug", { op: "continue" }), "exited with code 0");
        expectText(await call("debug", { op: "output" }), "total 400, average 133.3");
        return true;
      },
    ),
    sequenceStep("Go: the same on the Go module (delve builds it first)", async (call) => {
      expectText(await call("debug", { op: "breakpoints", file: "go/main.go", lines: [9] }), "9 pending");
      expectText(
        await call("debug", { op: "launch", program: "go" }),
        /stopped \(breakpoint\)[\s\S]*main\.go:9 in main\.restock/,
      );
      await inspect(
        call,
        /#1 frame \d+ main\.main at .*main\.go:17/,
        /level \(int\) = 3/,
        "minimum - level",
        "2",
      );
      expectText(await call("debug", { op: "step_over" }), "stopped (step)");
      expectText(await call("debug", { op: "breakpoints", file: "go/main.go", lines: [] }), "cleared");
      expectText(await call("debug", { op: "continue" }), "exited with code 0");
      expectText(await call("debug", { op: "output" }), "restocked 6");
      return true;
    }),
  ],
};
