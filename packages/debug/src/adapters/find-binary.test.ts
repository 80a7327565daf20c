import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVersioned } from "./find-binary.js";

describe("findVersioned", () => {
  let a: string;
  let b: string;
  beforeAll(() => {
    a = mkdtempSync(join(tmpdir(), "tools-debug-bin-a-"));
    b = mkdtempSync(join(tmpdir(), "tools-debug-bin-b-"));
    for (const [dir, name] of [
      [a, "lldb-dap-18"],
      [b, "lldb-dap-19"],
      [b, "lldb-dap-20.txt"],
      [a, "lldb-vscode"],
    ] as const) {
      writeFileSync(join(dir, name), "#!/bin/sh\n");
      chmodSync(join(dir, name), 0o755);
    }
    writeFileSync(join(a, "lldb-dap-21"), "not executable");
  });
  afterAll(() => {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  });

  it("prefers the highest executable versioned name over the whole path", () => {
    expect(findVersioned("lldb-dap", [a, b].join(delimiter))).toBe(join(b, "lldb-dap-19"));
  });

  it("falls back to the old name and says nothing is there when nothing is", () => {
    expect(findVersioned("lldb-vscode", a)).toBe(join(a, "lldb-vscode"));
    expect(findVersioned("lldb-dap", "/nonexistent")).toBeUndefined();
  });
});
