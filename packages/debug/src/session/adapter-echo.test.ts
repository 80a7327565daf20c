import { describe, expect, it } from "vitest";
import { isAdapterEcho, longestEcho } from "./adapter-echo.js";

describe("isAdapterEcho", () => {
  it("knows lldb-dap's and delve's exit lines and delve's banner, on the console only", () => {
    expect(isAdapterEcho("console", "Process 17409 exited with status = 0 (0x00000000) \r\n")).toBe(true);
    expect(isAdapterEcho("console", "Process 17409 exited with status = 0 (0x00000000) \r")).toBe(true);
    expect(isAdapterEcho("console", "Process 17410 has exited with status 3\n")).toBe(true);
    expect(isAdapterEcho("console", "Process 17410 has exited with status 3")).toBe(true);
    expect(isAdapterEcho("console", "Type 'dlv help' for list of commands.\n")).toBe(true);
    expect(isAdapterEcho("stdout", "Process 1 exited with status = 0\n")).toBe(false);
    expect(isAdapterEcho("console", "Process 1 exited with statusquo\n")).toBe(false);
    expect(isAdapterEcho("console", "Running initCommands:\n")).toBe(false);
  });

  it("keeps a console line longer than any echo without matching it, however it starts", () => {
    // The old pattern (`.*\s*$`) took time quadratic in such a line: 40,000 spaces and a CR
    // before a last character cost 1.4 s; an output event's line has no bound of its own.
    const padded = `Process 1 exited with status 0${" ".repeat(longestEcho)}\n`;
    expect(isAdapterEcho("console", padded)).toBe(false);
    const hostile = `Process 1 exited with status${" ".repeat(100_000)}\rX`;
    expect(isAdapterEcho("console", hostile)).toBe(false);
    // Just within the bound: still an echo.
    const longest = `Process 1 exited with status 0${" ".repeat(longestEcho - 31)}\n`;
    expect(longest.length).toBe(longestEcho);
    expect(isAdapterEcho("console", longest)).toBe(true);
  });
});
