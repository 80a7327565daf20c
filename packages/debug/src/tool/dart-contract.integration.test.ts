import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remaining, debugRun, removeWorkspace, workspace } from "../__fixtures__/harness.js";

// There is no Dart SDK on this machine: detection is tested for real (no `dart` on the search
// path), and the launch contract against a fake `dart debug_adapter` that behaves like dds.
const fake = new URL("../__fixtures__/fake-dart-adapter.mjs", import.meta.url).pathname;

describe("dart: detection and the launch contract (fake adapter)", () => {
  let dir: string;
  let bin: string;
  beforeAll(() => {
    dir = workspace("dart");
    bin = mkdtempSync(join(tmpdir(), "tools-debug-fake-dart-"));
    writeFileSync(join(bin, "dart"), `#!/bin/sh\nexec "${process.execPath}" "${fake}" "$@"\n`);
    chmodSync(join(bin, "dart"), 0o755);
  });
  afterAll(() => {
    removeWorkspace(dir);
    rmSync(bin, { recursive: true, force: true });
  });

  it("adapters explains a missing binary and a missing marker", async () => {
    const { run, call } = debugRun(dir, { searchPath: "/nonexistent" });
    try {
      const adapters = await call({ op: "adapters" });
      expect(adapters.text).toMatch(
        /dart: marker pubspec\.yaml found; binary not found; not usable: no 'dart' on PATH/,
      );
      expect(adapters.text).toMatch(
        /delve: no root marker; binary not found; not usable: no root marker \(go\.mod\)/,
      );
      const launch = await call({ op: "launch", program: "main.dart" });
      expect(launch.code).toBe("DEBUG_ADAPTER_UNUSABLE");
      expect(launch.text).toContain("no 'dart' on PATH");
    } finally {
      await run.dispose();
    }
  });

  it("launches through `dart debug_adapter` in the handshake order dds needs", async () => {
    const { run, call, sessionPids } = debugRun(dir, { searchPath: bin });
    let pids: number[] = [];
    try {
      const adapters = await call({ op: "adapters" });
      expect(adapters.text).toContain(`dart: marker pubspec.yaml found; binary ${join(bin, "dart")}; usable`);
      await call({ op: "breakpoints", file: "main.dart", lines: [3] });
      const launch = await call({ op: "launch", program: "main.dart", args: ["a"] });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("stopped (breakpoint) in thread 1 at main.dart:3 in main");
      pids = sessionPids();
      const output = await call({ op: "output" });
      expect(output.text).toContain("order: initialize,launch,setBreakpoints,configurationDone");
      expect(output.text).toContain('"console":"debugConsole"');
      expect(output.text).toContain('"args":["a"]');
      expect(output.text).toContain("hello 1");
      // Unverified at first, verified by the later breakpoint event.
      const status = await call({ op: "status" });
      expect(status.text).toContain("line 3: verified");
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});
