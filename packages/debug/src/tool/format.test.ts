import { describe, expect, it } from "vitest";
import type { DebugSession } from "../session/debug-session.js";
import { OutputRing } from "../session/output-ring.js";
import { formatEvaluation, formatFrames, formatOutcome } from "./format.js";

describe("formatFrames", () => {
  const frame = { id: 1, name: "main", line: 3, column: 1 };

  it("counts the frames left out in agreement with their number", () => {
    expect(formatFrames(1, [frame], { total: 2, start: 0, more: true }, "/")).toMatch(
      /\n… 1 more frame \(#1\): list it with /,
    );
    expect(formatFrames(1, [frame], { total: 3, start: 0, more: true }, "/")).toMatch(
      /\n… 2 more frames \(#1–#2\): list them with /,
    );
    expect(formatFrames(1, [frame], { total: 1, start: 0, more: false }, "/")).not.toContain("more");
  });

  it("says how to list the frames after a page, numbering a later page from its start", () => {
    expect(formatFrames(1, [frame], { total: 41, start: 0, more: true }, "/")).toBe(
      "thread 1\n#0 frame 1 main at <no source>\n" +
        '… 40 more frames (#1–#40): list them with {"op":"stack","start_frame":1}',
    );
    expect(formatFrames(1, [frame], { total: 41, start: 40, more: false }, "/")).toBe(
      "thread 1, frame #40 of 41\n#40 frame 1 main at <no source>",
    );
    // A thread named in the call is named in the way on.
    expect(formatFrames(7, [frame], { total: 3, start: 1, more: true, threadGiven: true }, "/")).toContain(
      '… 1 more frame (#2): list it with {"op":"stack","thread_id":7,"start_frame":2}',
    );
    // More frames, their number not known: said, not counted; no header total either.
    const page = Array.from({ length: 30 }, (_, id) => ({ ...frame, id }));
    expect(formatFrames(1, page, { total: undefined, start: 30, more: true }, "/")).toMatch(
      /^thread 1, frames #30–#59\n[^]*\n#59 frame 29 main at <no source>\n… more frames from #60 \(not counted\): list them with \{"op":"stack","start_frame":60\}$/,
    );
    // The last page (nothing after it): no line about more frames.
    expect(formatFrames(1, page, { total: 60, start: 30, more: false }, "/")).toMatch(
      /^thread 1, frames #30–#59 of 60\n[^]*#59 frame 29 main at <no source>$/,
    );
  });
});

describe("formatEvaluation", () => {
  it("says a statement or a call without a value was evaluated, instead of answering nothing", () => {
    expect(formatEvaluation({ result: "", variablesReference: 0 }, 4, 4)).toBe("(evaluated; no value)");
    expect(formatEvaluation({ result: "5", type: "int", variablesReference: 0 }, 4, 4)).toBe("5 (int)");
    expect(formatEvaluation({ result: "[1, 2]", type: "list", variablesReference: 7 }, 0, 0)).toBe(
      "[1, 2] (list)  [reference 7]",
    );
  });

  it("points to the output the evaluation wrote, with the cursor that reads it", () => {
    expect(formatEvaluation({ result: "", variablesReference: 0 }, 4, 5)).toBe(
      '(evaluated; no value)\n(it wrote 1 line of output: read with {"op":"output","cursor":4})',
    );
    expect(formatEvaluation({ result: "3", type: "int", variablesReference: 0 }, 0, 2)).toBe(
      '3 (int)\n(it wrote 2 lines of output: read with {"op":"output","cursor":0})',
    );
  });
});

describe("formatEvaluation with the output ring", () => {
  const evaluate = (ring: OutputRing, written: string): string => {
    const mark = ring.mark();
    ring.push("stdout", written);
    return formatEvaluation({ result: "None", variablesReference: 0 }, ring.cursorSince(mark), ring.end);
  };

  it("counts and points at an open line the evaluation's output went on", () => {
    // Stopped after print("Value: ", end=""), then evaluate print("a\nb"): "a" joins that line.
    const ring = new OutputRing();
    ring.push("stdout", "Value: ");
    expect(evaluate(ring, "a\nb\n")).toBe(
      'None\n(it wrote 2 lines of output: read with {"op":"output","cursor":0})',
    );
    // print("x") alone at an open line still says it wrote.
    const open = new OutputRing();
    open.push("stdout", "Value: ");
    expect(evaluate(open, "x\n")).toBe(
      'None\n(it wrote 1 line of output: read with {"op":"output","cursor":0})',
    );
  });
});

describe("formatOutcome", () => {
  const session = { unfollowedProcesses: () => [] } as unknown as DebugSession;
  const timeout = { kind: "timeout" } as const;

  it("after a pause that did not stop the program, says so and never tells to pause", async () => {
    const text = await formatOutcome(session, timeout, 15_000, "pause");
    expect(text).toBe(
      "pause was sent but the program did not stop within 15 s (it may be blocked in a system call or native code); " +
        "try pause again, or terminate",
    );
  });

  it("after a step that has not ended, says the step is what is still running", async () => {
    expect(await formatOutcome(session, timeout, 15_000, "step_over")).toMatch(
      /^the step has not ended after 15 s: the program is still running .*; use op 'pause' to stop it/,
    );
    expect(await formatOutcome(session, timeout, 1000, "continue")).toBe(
      "still running after 1 s (no stop yet); use op 'pause' to stop it, 'status' to check, or 'terminate'",
    );
  });

  it("names at most 5 of the processes the session does not follow, counting the rest", async () => {
    const pids = [11, 12, 13, 14, 15, 16, 17];
    const started = {
      unfollowedProcesses: () => pids.map((pid) => ({ pid, command: "sleep", fork: false })),
    } as unknown as DebugSession;
    expect((await formatOutcome(started, timeout, 1000, "continue")).split("\n")[1]).toBe(
      "  the program started 7 processes the session does not follow " +
        "(pid 11: sleep; pid 12: sleep; pid 13: sleep; pid 14: sleep; pid 15: sleep; and 2 more): " +
        "debugpy stops only in the program's own process; 'terminate' ends them all",
    );
  });

  it("says a fork of the program can be held at a breakpoint, naming the others by what they run", async () => {
    const started = {
      unfollowedProcesses: () => [
        { pid: 21, command: "python3", fork: true },
        { pid: 22, command: "python3", fork: false },
      ],
    } as unknown as DebugSession;
    expect((await formatOutcome(started, timeout, 1000, "continue")).split("\n")[1]).toBe(
      "  the program started 2 processes the session does not follow (pid 21: a fork of the program; pid 22: python3): " +
        "debugpy stops only in the program's own process; a fork that reaches a breakpoint waits there for good " +
        "(it carries debugpy's tracing, not its connection), and a parent waiting for it waits too; 'terminate' ends them all",
    );
  });
});
