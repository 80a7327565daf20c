import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ci, debugRun, remaining, removeWorkspace } from "../__fixtures__/harness.js";
import { dlv, lldb } from "../__fixtures__/backends.js";

// A program reading its stdin: nobody can type into it, so it must get end of file at once
// (as under debugpy), not wait for good while every launch and continue says "still running".

async function launchReader(dir: string, program: string): Promise<void> {
  const { run, call, sessionPids } = debugRun(dir, { firstStopMs: 10_000 });
  let pids: number[] = [];
  try {
    const launch = call({ op: "launch", program });
    // The tree while it runs (empty once the session ended), for the check afterwards.
    const started = Date.now();
    while (pids.length === 0 && Date.now() - started < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pids = sessionPids();
    }
    const done = await launch;
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain("the program exited with code 0; the session has ended");
    expect(done.text).toMatch(/recent output:\neof\n?$/);
  } finally {
    await run.dispose();
  }
  expect(remaining(pids)).toEqual([]);
}

describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a program reading stdin", () => {
  it("gets end of file at once and exits", async () => {
    expect(lldb, "lldb-dap and cc must be on PATH").toBeTruthy();
    const dir = mkdtempSync(join(tmpdir(), "tools-debug-cstdin-"));
    try {
      writeFileSync(join(dir, "CMakeLists.txt"), "project(reader C)\n");
      writeFileSync(
        join(dir, "reader.c"),
        [
          "#include <stdio.h>",
          "int main(void) {",
          "    char line[100];",
          '    puts(fgets(line, sizeof line, stdin) ? line : "eof");',
          "    return 0;",
          "}",
          "",
        ].join("\n"),
      );
      execFileSync("cc", ["-g", "-O0", "-o", join(dir, "reader"), join(dir, "reader.c")]);
      await launchReader(dir, "reader");
    } finally {
      removeWorkspace(dir);
    }
  });
});

describe.skipIf(!dlv && !ci)("debug tool on delve: a program reading stdin", () => {
  it("gets end of file at once and exits", { timeout: 180_000 }, async () => {
    expect(dlv, "dlv and go must be on PATH").toBeTruthy();
    const dir = mkdtempSync(join(tmpdir(), "tools-debug-gostdin-"));
    try {
      writeFileSync(join(dir, "go.mod"), "module reader\n\ngo 1.19\n");
      writeFileSync(
        join(dir, "main.go"),
        [
          "package main",
          "",
          'import "os"',
          "",
          "func main() {",
          "\tbuf := make([]byte, 100)",
          "\tif n, _ := os.Stdin.Read(buf); n > 0 {",
          "\t\tos.Stdout.Write(buf[:n])",
          "\t} else {",
          '\t\tos.Stdout.WriteString("eof\\n")',
          "\t}",
          "}",
          "",
        ].join("\n"),
      );
      await launchReader(dir, ".");
    } finally {
      removeWorkspace(dir);
    }
  });
});
