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
});
