import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AdapterId, AdapterReport } from "./detect-adapter.js";
import { adapterForProgram, attachPlan, reaperPython } from "./launch-plan.js";

describe("adapterForProgram", () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-debug-plan-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const folder = (name: string, files: readonly string[]): string => {
    const path = join(dir, name);
    mkdirSync(path);
    for (const file of files) writeFileSync(join(path, file), "\n");
    return path;
  };

  it("takes a folder holding __main__.py for a Python program", () => {
    expect(adapterForProgram(folder("pkg", ["__main__.py", "util.py"]))).toBe("debugpy");
  });

  it("keeps a folder of .go files a Go package, also beside a __main__.py", () => {
    expect(adapterForProgram(folder("gopkg", ["main.go"]))).toBe("delve");
    expect(adapterForProgram(folder("both", ["main.go", "__main__.py"]))).toBe("delve");
    expect(adapterForProgram(folder("empty", []))).toBe("delve");
  });

  it("goes by the extension for files", () => {
    expect(adapterForProgram(join(dir, "app.py"))).toBe("debugpy");
    expect(adapterForProgram(join(dir, "gui.pyw"))).toBe("debugpy");
    expect(adapterForProgram(join(dir, "GUI.PYW"))).toBe("debugpy");
    expect(adapterForProgram(join(dir, "main.go"))).toBe("delve");
    expect(adapterForProgram(join(dir, "main.dart"))).toBe("dart");
    expect(adapterForProgram(join(dir, "prog"))).toBe("lldb");
  });
});

describe("attachPlan", () => {
  const report = (id: AdapterId): AdapterReport => ({
    id,
    marker: undefined,
    binary: "/usr/bin/true",
    binaryNote: "",
    usable: true,
    why: undefined,
    warnings: [],
  });

  it("connects to the port itself for debugpy and delve only: lldb-dap is ours, over stdio", () => {
    expect(attachPlan(report("debugpy"), 5678, tmpdir(), 1000).connectsToPort).toBe(true);
    expect(attachPlan(report("delve"), 5678, tmpdir(), 1000).connectsToPort).toBe(true);
    expect(attachPlan(report("lldb"), 5678, tmpdir(), 1000).connectsToPort).toBeFalsy();
  });
});

describe("reaperPython", () => {
  it("takes the first python3 that is a binary, not a version manager's script", () => {
    const dir = mkdtempSync(join(tmpdir(), "tools-debug-reaper-"));
    try {
      const shims = join(dir, "shims");
      const bin = join(dir, "bin");
      mkdirSync(shims);
      mkdirSync(bin);
      writeFileSync(join(shims, "python3"), '#!/bin/sh\nexec python3 "$@"\n', { mode: 0o755 });
      // An ELF header stands for the interpreter here: only the first bytes are read.
      writeFileSync(join(bin, "python3"), Buffer.from([0x7f, 0x45, 0x4c, 0x46]), { mode: 0o755 });
      expect(reaperPython(`${shims}:${bin}`)).toBe(join(bin, "python3"));
      expect(reaperPython(shims)).toBe(join(shims, "python3"));
      expect(reaperPython(join(dir, "none"))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
