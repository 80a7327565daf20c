import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { debugRun } from "../__fixtures__/harness.js";

describe("debug tool arguments", () => {
  const dir = mkdtempSync(join(tmpdir(), "debug-args-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses an argument its op does not read, naming the op that does, before anything starts", async () => {
    const { run, call, supervisor } = debugRun(dir);
    try {
      const launch = await call({ op: "launch", program: "app.py", lines: [12] });
      expect(launch.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(launch.text).toBe(
        `op 'launch' does not take 'lines' (breakpoints); it takes program, args, adapter. Make each op its own call, e.g. {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py"}`,
      );
      const status = await call({ op: "status", thread_id: 1, expression: "x" });
      expect(status.text).toContain(
        "op 'status' does not take 'thread_id' (continue, pause, step_over, step_in, step_out, stack), 'expression' (evaluate); it takes nothing else.",
      );
      expect(supervisor.conversation("conv-1").session).toBeUndefined();
      // What an op reads is accepted as before.
      writeFileSync(join(dir, "app.py"), "x = 1\ny = 2\nz = 3\n");
      const breakpoints = await call({ op: "breakpoints", file: "app.py", lines: [3] });
      expect(breakpoints.text).toBe(
        "app.py: lines 3 pending; they are sent when the program is launched or attached",
      );
      // An empty string is not given: no path to check either (the workspace guardrail refuses "").
      const blank = await call({ op: "breakpoints", file: "app.py", lines: [3], program: "" });
      expect(blank.isError, blank.text).toBe(false);
      expect(blank.text).toBe(
        "app.py: lines 3 pending; they are sent when the program is launched or attached",
      );
      const noProgram = await call({ op: "launch", program: "" });
      expect(noProgram.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(noProgram.text).toBe("op 'launch' needs 'program'");
    } finally {
      await run.dispose();
    }
  });

  it("refuses a program the forced adapter cannot run, before starting it", async () => {
    writeFileSync(join(dir, "app.py"), "print(1)\n");
    mkdirSync(join(dir, "pkg"), { recursive: true });
    const { run, call } = debugRun(dir);
    try {
      const delve = await call({ op: "launch", program: "app.py", adapter: "delve" });
      expect(delve.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(delve.text).toBe(
        "cannot launch app.py with delve: delve builds a Go package: give its folder or a .go file, or leave adapter out to use debugpy",
      );
      // An lldb program must be executable; a dart program is a file (checked before any adapter).
      writeFileSync(join(dir, "prog"), "not a binary");
      const notExecutable = await call({ op: "launch", program: "prog" });
      expect(notExecutable.text).toBe(
        "cannot launch prog: it is not executable; give the compiled binary (build it first)",
      );
      const dartFolder = await call({ op: "launch", program: "pkg", adapter: "dart" });
      expect(dartFolder.text).toBe(
        "cannot launch pkg: it is a folder; give the .dart file to run (its main)",
      );
      const lldb = await call({ op: "launch", program: "pkg", adapter: "lldb" });
      expect(lldb.text).toBe(
        "cannot launch pkg with lldb: lldb-dap runs a compiled binary: build it first and give the binary, or leave adapter out to use delve",
      );
      // debugpy and dart forced on another language's program: before, debugpy ran a Go file
      // as Python (a SyntaxError under 14 lines of debugpy's own traceback) or said its root
      // marker was missing, and dart was started on a .py file.
      writeFileSync(join(dir, "main.go"), "package main\n\nfunc main() {}\n");
      const goAsPython = await call({ op: "launch", program: "main.go", adapter: "debugpy" });
      expect(goAsPython.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(goAsPython.text).toBe(
        "cannot launch main.go with debugpy: debugpy runs Python: give a .py file or a folder with __main__.py, or leave adapter out to use delve",
      );
      writeFileSync(join(dir, "native"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), { mode: 0o755 });
      const binaryAsPython = await call({ op: "launch", program: "native", adapter: "debugpy" });
      expect(binaryAsPython.text).toBe(
        "cannot launch native with debugpy: it is a compiled binary, and debugpy runs Python: give a .py file or a folder with __main__.py, or leave adapter out to use lldb",
      );
      const pythonAsDart = await call({ op: "launch", program: "app.py", adapter: "dart" });
      expect(pythonAsDart.text).toBe(
        "cannot launch app.py with dart: dart runs a .dart file: give the .dart file to run (its main), or leave adapter out to use debugpy",
      );
      // A .pyw file is Python's too (it went to lldb, which refused it as a binary not built
      // yet), and a C source is built for lldb, not given to it: both pointed at lldb before.
      writeFileSync(join(dir, "gui.pyw"), "print(1)\n");
      const pywAsDart = await call({ op: "launch", program: "gui.pyw", adapter: "dart" });
      expect(pywAsDart.text).toBe(
        "cannot launch gui.pyw with dart: dart runs a .dart file: give the .dart file to run (its main), or leave adapter out to use debugpy",
      );
      const pywAsLldb = await call({ op: "launch", program: "gui.pyw", adapter: "lldb" });
      expect(pywAsLldb.text).toBe(
        "cannot launch gui.pyw with lldb: lldb-dap runs a compiled binary: build it first and give the binary, or leave adapter out to use debugpy",
      );
      writeFileSync(join(dir, "main.c"), "int main(void) { return 0; }\n");
      const cAsPython = await call({ op: "launch", program: "main.c", adapter: "debugpy" });
      expect(cAsPython.text).toBe(
        "cannot launch main.c with debugpy: debugpy runs Python: give a .py file or a folder with __main__.py, or build main.c and give its binary (lldb runs it)",
      );
      // A name without an extension leading to a Go file (a link `run` → main.go) is Go's: it
      // was taken as a script and debugpy ran the Go source as Python.
      symlinkSync("main.go", join(dir, "run"));
      const linkAsPython = await call({ op: "launch", program: "run", adapter: "debugpy" });
      expect(linkAsPython.text).toBe(
        "cannot launch run with debugpy: debugpy runs Python: give a .py file or a folder with __main__.py, or leave adapter out to use delve",
      );
      // A Python script without an extension is still Python's to run.
      writeFileSync(join(dir, "tool"), "#!/usr/bin/env python3\nprint(1)\n");
      const script = await call({ op: "launch", program: "tool", adapter: "debugpy" });
      expect(script.code).not.toBe("DEBUG_BAD_ARGUMENTS");
    } finally {
      await run.dispose();
    }
  });

  it("refuses breakpoints no adapter could bind: a missing file, a folder, a FIFO, a line past the end", async () => {
    const ws = mkdtempSync(join(tmpdir(), "debug-bp-"));
    const { run, call, supervisor } = debugRun(ws);
    try {
      writeFileSync(
        join(ws, "short.py"),
        Array.from({ length: 12 }, (_, i) => `x${i} = ${i}`).join("\n") + "\n",
      );
      mkdirSync(join(ws, "pkg"));
      execFileSync("mkfifo", [join(ws, "pipe.py")]);

      const missing = await call({ op: "breakpoints", file: "python/nonexist.py", lines: [3] });
      expect(missing.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(missing.text).toBe(
        "python/nonexist.py does not exist in the working directory; give the source file's path relative to it",
      );
      const folder = await call({ op: "breakpoints", file: "pkg", lines: [1] });
      expect(folder.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(folder.text).toBe("pkg is a folder; give a source file in it");
      const fifo = await call({ op: "breakpoints", file: "pipe.py", lines: [1] });
      expect(fifo.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(fifo.text).toBe("pipe.py is a FIFO, socket or device, not a source file; give a source file");
      const past = await call({ op: "breakpoints", file: "short.py", lines: [3, 99999] });
      expect(past.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(past.text).toBe(
        "line 99999 is past the end of short.py, which has 12 lines; give lines from 1 to 12",
      );
      // Nothing refused was kept.
      expect(supervisor.conversation("conv-1").breakpoints.files.size).toBe(0);

      // The last line is accepted; clearing needs no file (it may have been deleted meanwhile).
      const last = await call({ op: "breakpoints", file: "short.py", lines: [12] });
      expect(last.text).toBe(
        "short.py: lines 12 pending; they are sent when the program is launched or attached",
      );
      const clearMissing = await call({ op: "breakpoints", file: "gone.py", lines: [] });
      expect(clearMissing.isError, clearMissing.text).toBe(false);
    } finally {
      await run.dispose();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it("keeps at most 100 breakpoints per file and 50 files, and bounds the listing, counting the rest", async () => {
    const ws = mkdtempSync(join(tmpdir(), "debug-bp-many-"));
    const { run, call } = debugRun(ws);
    try {
      const source = Array.from({ length: 5000 }, (_, i) => `x = ${i}`).join("\n") + "\n";
      writeFileSync(join(ws, "big.py"), source);
      const all = await call({
        op: "breakpoints",
        file: "big.py",
        lines: Array.from({ length: 5000 }, (_, i) => i + 1),
      });
      expect(all.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(all.text).toBe(
        "5000 breakpoints asked for in big.py; at most 100 per file are kept. Set the lines you mean to stop at (the first line of each function you suspect, say)",
      );
      const hundred = await call({
        op: "breakpoints",
        file: "big.py",
        lines: Array.from({ length: 100 }, (_, i) => i + 1),
      });
      expect(hundred.text).toBe(
        "big.py: lines 1–100 pending; they are sent when the program is launched or attached",
      );

      for (let file = 1; file < 50; file++) {
        writeFileSync(join(ws, `m${file}.py`), "a = 1\nb = 2\n");
        const set = await call({ op: "breakpoints", file: `m${file}.py`, lines: [1, 2] });
        expect(set.isError, set.text).toBe(false);
      }
      writeFileSync(join(ws, "m50.py"), "a = 1\n");
      const tooMany = await call({ op: "breakpoints", file: "m50.py", lines: [1] });
      expect(tooMany.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(tooMany.text).toContain("breakpoints are set in 50 files already, at most 50 are kept");
      // A file already set can still be changed.
      const change = await call({ op: "breakpoints", file: "m1.py", lines: [2] });
      expect(change.isError, change.text).toBe(false);

      // 30 lines listed (one per pending file), the other 20 files' 39 breakpoints counted.
      const status = await call({ op: "status" });
      const listing = status.text.split("breakpoints:\n")[1]!.split("\n");
      expect(listing).toHaveLength(31);
      expect(listing[0]).toBe("big.py: lines 1–100 (pending: sent at launch or attach)");
      expect(listing[1]).toBe("m1.py: lines 2 (pending: sent at launch or attach)");
      expect(listing[30]).toBe("… 40 more breakpoints in 20 files not shown: 40 pending");
    } finally {
      await run.dispose();
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
