import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("public API", () => {
  it("exports exactly the named API", () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        "DapConnection",
        "DapRequestError",
        "DebugError",
        "DebugSession",
        "DebugSupervisor",
        "adapterIds",
        "adapterTable",
        "createDebugSupervisor",
        "debugSupervisorKey",
        "debugTool",
        "detectAdapter",
        "detectAdapters",
        "limits",
      ].sort(),
    );
  });

  it("defines the debug tool as exec tier, not parallel-safe, requiring the supervisor", () => {
    expect(api.debugTool.tier).toBe("exec");
    expect(api.debugTool.parallelSafe).toBe(false);
    expect(api.debugTool.requires).toEqual([api.debugSupervisorKey]);
  });

  // The model reads only this: a stop after an answer was said to be reported by status or the
  // next continue/step, where the next breakpoints call reports it too, and breakpoints set
  // while the program runs wait for a stop (from the adapter's answer) was not said at all.
  it("says which calls report a stop that came after an answer, and the breakpoints' wait", () => {
    const lines = api.debugTool.description.split("\n");
    expect(lines).toContain(
      "Ids and references are valid only until the program resumes. continue/step_* return at the next stop, at exit, or say 'still running'; " +
        "breakpoints set while the program runs wait a moment (200 ms by default, counted from the adapter's answer) for a stop at one.",
    );
    expect(lines).toContain(
      "A stop reached after an answer is reported by status or the next breakpoints/continue/step call (a continue/step then resumes nothing).",
    );
  });
});
