import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { debugRun, remaining } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

/** The part of an answer from its line that starts with `starts` to the end. */
function outputPart(text: string, starts: string): string {
  const at = text.indexOf(starts);
  expect(at, text).toBeGreaterThanOrEqual(0);
  return text.slice(at);
}

/** Frame lines of debugpy's own files, and of the runpy that starts it. */
const debuggerFrame = /File "[^"]*(?:debugpy|pydevd|runpy)[^"]*"/;

/** How many frames of the first traceback in a whole `output` come before `file`'s first frame. */
function framesBefore(whole: string, file: string): number {
  const lines = whole.split("\n");
  const header = lines.indexOf("[stderr] Traceback (most recent call last):");
  const user = lines.findIndex((line) => line.includes(`${file}", line`));
  expect(header, whole).toBeGreaterThanOrEqual(0);
  expect(user, whole).toBeGreaterThan(header);
  return lines.slice(header + 1, user).filter((line) => /^\[stderr\] {3}File "/.test(line)).length;
}

// A program that died of an uncaught exception under debugpy was shown (in the launch, continue
// and exit answers) with ~10 frames of debugpy itself (runpy, debugpy's cli.py, pydevd_runpy.py)
// before the user's frames: 1500 characters of them, which pushed the exception's cause out of
// a chained traceback. The answers leave those frames out and say how many; op 'output' keeps
// the output whole.
describeDebugpy(
  "a Python traceback in the output debugpy answers show",
  (project) => {
    it(
      "keeps a line another thread wrote between debugpy's frames, indented like a frame's code",
      { timeout: 120_000 },
      async () => {
        // The program stages the race: once the traceback's first debugpy frame line is written,
        // a second thread writes its own indented line and ends, then the traceback goes on.
        writeFileSync(
          join(project.dir, "interleaved.py"),
          [
            "import sys, threading",
            "real = sys.stderr",
            "class Staged:",
            "    done = False",
            "    def write(self, text):",
            "        written = real.write(text)",
            "        if not Staged.done and text.startswith('  File \"') and 'debugpy' in text:",
            "            Staged.done = True",
            "            real.flush()",
            "            worker = threading.Thread(target=lambda: (real.write('    worker: 3 of 5 done\\n'), real.flush()))",
            "            worker.start()",
            "            worker.join()",
            "        return written",
            "    def flush(self):",
            "        real.flush()",
            "    def __getattr__(self, name):",
            "        return getattr(real, name)",
            "sys.stderr = Staged()",
            "raise RuntimeError('boom')",
            "",
          ].join("\n"),
        );
        const { run, call, sessionPids } = debugRun(project.dir);
        let pids: number[] = [];
        try {
          const launch = await call({ op: "launch", program: "interleaved.py" });
          expect(launch.text).toContain("stopped on an exception");
          pids = sessionPids();
          const done = await call({ op: "continue" });
          expect(done.text).toContain("exited with code 1");
          // op 'output' has it between debugpy's frames, as written.
          const whole = (await call({ op: "output" })).text.split("\n");
          const worker = whole.indexOf("[stderr]     worker: 3 of 5 done");
          expect(whole[worker - 1], whole.join("\n")).toMatch(/^\[stderr\] {3}File "[^"]*debugpy[^"]*"/);
          const since = outputPart(done.text, "output since the continue");
          expect(since.split("\n").slice(1)).toEqual([
            "[stderr] Traceback (most recent call last):",
            `[stderr]   … ${framesBefore(whole.join("\n"), "interleaved.py")} debugger frames left out (op 'output' shows them)`,
            "[stderr]     worker: 3 of 5 done",
            `[stderr]   File "${join(project.dir, "interleaved.py")}", line 19, in <module>`,
            "[stderr]     raise RuntimeError('boom')",
            "[stderr] RuntimeError: boom",
          ]);
        } finally {
          await run.dispose();
        }
        expect(remaining(pids)).toEqual([]);
      },
    );

    it(
      "of a continue shows the user's frames and the exception, saying how many were left out",
      { timeout: 120_000 },
      async () => {
        const { run, call, sessionPids } = debugRun(project.dir);
        let pids: number[] = [];
        try {
          const launch = await call({ op: "launch", program: "crash.py" });
          expect(launch.text).toContain("stopped on an exception");
          pids = sessionPids();
          const done = await call({ op: "continue" });
          expect(done.text).toContain("exited with code 1");
          // op 'output' reads the output whole, debugpy's frames too.
          const whole = (await call({ op: "output" })).text;
          expect(whole).toContain("pydevd_runpy.py");
          const count = framesBefore(whole, "crash.py");
          expect(count).toBeGreaterThan(3);
          const since = outputPart(done.text, "output since the continue");
          expect(since.split("\n").slice(1)).toEqual([
            "[stderr] Traceback (most recent call last):",
            `[stderr]   … ${count} debugger frames left out (op 'output' shows them)`,
            `[stderr]   File "${join(project.dir, "crash.py")}", line 5, in <module>`,
            "[stderr]     divide(1, 0)",
            `[stderr]   File "${join(project.dir, "crash.py")}", line 2, in divide`,
            "[stderr]     return a / b",
            ...since.split("\n").filter((line) => /^\[stderr\] +~~\^~~$/.test(line)),
            "[stderr] ZeroDivisionError: division by zero",
          ]);
        } finally {
          await run.dispose();
        }
        expect(remaining(pids)).toEqual([]);
      },
    );

    it(
      "of a launch that ends in a syntax error shows the error's place without debugpy's frames",
      { timeout: 120_000 },
      async () => {
        const { run, call } = debugRun(project.dir);
        try {
          const launch = await call({ op: "launch", program: "bad_syntax.py" });
          expect(launch.text).toContain("exited with code 1");
          const recent = outputPart(launch.text, "recent output:\n");
          expect(recent).not.toMatch(debuggerFrame);
          expect(recent).toMatch(
            /\n\[stderr\] {3}… \d+ debugger frames left out \(op 'output' shows them\)\n/,
          );
          expect(recent).toContain(
            `[stderr]   File "${join(project.dir, "bad_syntax.py")}", line 2\n[stderr]     def f(:\n`,
          );
          expect(recent).toContain("[stderr] SyntaxError: ");
          expect((await call({ op: "output" })).text).toMatch(debuggerFrame);
        } finally {
          await run.dispose();
        }
      },
    );

    it(
      "of a chained exception shows both tracebacks, and leaves the program's own text as written",
      { timeout: 120_000 },
      async () => {
        const { run, call } = debugRun(project.dir);
        try {
          const launch = await call({ op: "launch", program: "chained.py" });
          expect(launch.text).toContain("stopped on an exception");
          const done = await call({ op: "continue" });
          const since = outputPart(done.text, "output since the continue");
          // Whole: nothing was cut to fit once debugpy's frames are out.
          expect(since).not.toContain("earlier lines left out");
          expect(since).toContain("[stderr] KeyError: 'k'\n");
          expect(since).toContain("The above exception was the direct cause of the following exception:");
          expect(since).toContain(
            `[stderr]   File "${join(project.dir, "chained.py")}", line 9, in <module>\n`,
          );
          // The program's own text after the traceback stays as it wrote it.
          expect(since.split("\n").slice(-3)).toEqual([
            "[stderr] ValueError: wrapped",
            '[stderr]   File "/usr/lib/python3/dist-packages/debugpy/server/cli.py", line 1, in main',
            "[stderr]     cli.main()",
          ]);
          // Before it, no debugpy frame is left.
          expect(since.slice(0, since.indexOf("ValueError: wrapped"))).not.toMatch(debuggerFrame);
        } finally {
          await run.dispose();
        }
      },
    );
  },
  (dir) => {
    writeFileSync(join(dir, "bad_syntax.py"), ["x = 1", "def f(:", "    pass", ""].join("\n"));
    writeFileSync(
      join(dir, "chained.py"),
      [
        "import atexit, sys",
        "# Text that only mentions a debugpy frame, after the traceback but in none, is the program's.",
        "atexit.register(lambda: sys.stderr.write('  File \"/usr/lib/python3/dist-packages/debugpy/server/cli.py\", line 1, in main\\n    cli.main()\\n'))",
        "def f():",
        "    try:",
        "        {}['k']",
        "    except KeyError as e:",
        "        raise ValueError('wrapped') from e",
        "f()",
        "",
      ].join("\n"),
    );
  },
);
