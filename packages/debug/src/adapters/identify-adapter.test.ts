import { describe, expect, it } from "vitest";
import { identifyAdapter } from "./identify-adapter.js";

// Initialize answers as measured (debugpy 1.6.3, delve 1.20.2, lldb-dap 19.1.7), trimmed.
const debugpy = {
  supportsConfigurationDoneRequest: true,
  supportsDebuggerProperties: true,
  supportsDelayedStackTraceLoading: true,
  exceptionBreakpointFilters: [
    { filter: "raised", label: "Raised Exceptions", default: false },
    { filter: "uncaught", label: "Uncaught Exceptions", default: true },
    { filter: "userUnhandled", label: "User Uncaught Exceptions", default: false },
  ],
};
const delve = {
  supportsConfigurationDoneRequest: true,
  supportsDelayedStackTraceLoading: true,
  supportsDisassembleRequest: true,
  supportsSteppingGranularity: true,
  supportsInstructionBreakpoints: true,
};
const lldb = {
  __lldb: { version: "lldb version 19.1.7" },
  supportsConfigurationDoneRequest: true,
  exceptionBreakpointFilters: [{ filter: "cpp_catch", label: "C++ Catch", default: false }],
};

// lldb-dap 21+ (ProtocolTypes.cpp): the version under `$__lldb_version`, and no C++ exception
// filters until a target names the language; it declares what delve declares and more.
const lldb21 = {
  $__lldb_version: "lldb version 21.1.0",
  supportsConfigurationDoneRequest: true,
  supportsDelayedStackTraceLoading: true,
  supportsDisassembleRequest: true,
  supportsInstructionBreakpoints: true,
  supportsModulesRequest: true,
  supportsSteppingGranularity: true,
};

describe("identifyAdapter", () => {
  it("tells debugpy, delve and lldb-dap apart by their initialize answers", () => {
    expect(identifyAdapter(debugpy)).toBe("debugpy");
    expect(identifyAdapter(delve)).toBe("delve");
    expect(identifyAdapter(lldb)).toBe("lldb");
  });

  it("knows lldb-dap 21+ by `$__lldb_version`, not as delve", () => {
    expect(identifyAdapter(lldb21)).toBe("lldb");
    // Without its version field, lldb-dap's modules request still tells it from delve.
    const { $__lldb_version: _version, ...unnamed } = lldb21;
    expect(identifyAdapter(unnamed)).toBeUndefined();
  });

  it("says nothing when the answer does not tell", () => {
    expect(identifyAdapter({})).toBeUndefined();
    expect(identifyAdapter({ supportsConfigurationDoneRequest: true })).toBeUndefined();
  });
});
