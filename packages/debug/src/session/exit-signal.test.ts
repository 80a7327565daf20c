import { describe, expect, it } from "vitest";
import { exitPhrase, exitSignal } from "./exit-signal.js";
import type { StopInfo } from "./session-state.js";

const stop = (reason: string, description?: string, text?: string): StopInfo => ({
  reason,
  description,
  text,
  threadId: 1,
  hitBreakpointIds: [],
});

describe("exitSignal", () => {
  it("reads lldb's code as the signal it stopped on before", () => {
    const segv = stop("exception", "signal SIGSEGV: address not mapped to object (fault address: 0x0)");
    expect(exitSignal("lldb", 11, segv)).toEqual({ name: "SIGSEGV", number: 11 });
    // exit(11) without that stop, or after a breakpoint, is a code.
    expect(exitSignal("lldb", 11, undefined)).toBeUndefined();
    expect(exitSignal("lldb", 11, stop("breakpoint", "breakpoint 1.1"))).toBeUndefined();
    expect(exitSignal("lldb", 5, segv)).toBeUndefined();
    expect(exitSignal("lldb", -1, undefined)).toBeUndefined();
  });

  it("reads lldb's -1 for a stopped program as SIGKILL, and its 9 for a running one as exit(9) or SIGKILL", () => {
    const breakpoint = stop("breakpoint", "breakpoint 1.1");
    expect(exitSignal("lldb", -1, breakpoint, true)).toEqual({
      name: "SIGKILL",
      number: 9,
      told: "while stopped: lldb-dap lost it and reports -1, and only SIGKILL ends a stopped program",
    });
    expect(exitSignal("lldb", -1, breakpoint, false)).toBeUndefined();
    expect(exitSignal("lldb", 9, breakpoint, false)).toEqual({
      name: "SIGKILL",
      number: 9,
      fromCode: 9,
      codeFirst: true,
    });
    // Stopped (an evaluate calling exit(9)): the program's own code.
    expect(exitSignal("lldb", 9, breakpoint, true)).toBeUndefined();
  });

  it("reads delve's negative status as the signal; its other codes are codes", () => {
    expect(exitSignal("delve", -9, undefined)).toEqual({ name: "SIGKILL", number: 9 });
    expect(exitSignal("delve", 247, undefined)).toBeUndefined();
    expect(exitSignal("delve", 4, undefined)).toBeUndefined();
  });

  it("reads debugpy's 8-bit cut of a negative returncode, unless the program stopped on SystemExit", () => {
    expect(exitSignal("debugpy", 247, undefined)).toEqual({
      name: "SIGKILL",
      number: 9,
      fromCode: 247,
      alsoBy: "os._exit",
    });
    expect(exitSignal("debugpy", 245, stop("breakpoint"))).toEqual({
      name: "SIGSEGV",
      number: 11,
      fromCode: 245,
      alsoBy: "os._exit",
    });
    expect(exitSignal("debugpy", -15, undefined)).toEqual({ name: "SIGTERM", number: 15 });
    expect(exitSignal("debugpy", 247, stop("exception", "247", "SystemExit"))).toBeUndefined();
    expect(exitSignal("debugpy", 3, undefined)).toBeUndefined();
    expect(exitSignal("debugpy", 128 + 9, undefined)).toBeUndefined();
  });

  it("takes other adapters' codes as they come", () => {
    expect(exitSignal("delve", 247, undefined)).toBeUndefined();
    expect(exitSignal("dart", 11, stop("exception", "signal SIGSEGV"))).toBeUndefined();
  });
});

describe("exitPhrase", () => {
  it("names the signal, else the code", () => {
    expect(exitPhrase({ exitCode: 11, signal: { name: "SIGSEGV", number: 11 } })).toBe(
      "was killed by signal SIGSEGV (11)",
    );
    expect(exitPhrase({ exitCode: 3 })).toBe("exited with code 3");
    // debugpy's 247 is SIGKILL or os._exit(247): the phrase says which code it read.
    expect(
      exitPhrase({
        exitCode: 247,
        signal: { name: "SIGKILL", number: 9, fromCode: 247, alsoBy: "os._exit" },
      }),
    ).toBe("was killed by signal SIGKILL (9) (exit code 247, which os._exit(247) would also give)");
    expect(
      exitPhrase({ exitCode: 9, signal: { name: "SIGKILL", number: 9, fromCode: 9, codeFirst: true } }),
    ).toBe("exited with code 9 (or was killed by signal SIGKILL (9), which the adapter reports the same)");
    expect(
      exitPhrase({ exitCode: -1, signal: { name: "SIGKILL", number: 9, told: "while stopped: why" } }),
    ).toBe("was killed by signal SIGKILL (9) while stopped: why");
    expect(exitPhrase({ exitCode: undefined })).toBe("exited");
  });
});
