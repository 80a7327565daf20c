import { describe, expect, it } from "vitest";
import { withoutAdapterFrames, withoutDebuggerFrames } from "./adapter-frames.js";

const pydevd = "/usr/lib/python3/dist-packages/debugpy/_vendored/pydevd/_pydevd_bundle";

describe("withoutAdapterFrames", () => {
  it("drops debugpy's own frames (and their quoted code) before a syntax error in the expression", () => {
    // debugpy 1.6.6's answer to evaluate "def g(:", its middle frames left out.
    const message = [
      "Traceback (most recent call last):",
      `  File "${pydevd}/pydevd_comm.py", line 1195, in internal_evaluate_expression_json`,
      "    pydevd_vars.evaluate_expression(py_db, frame, expression, is_exec=True)",
      `  File "${pydevd}/pydevd_vars.py", line 412, in _compile_as_exec`,
      "    return compile(expression_to_evaluate, '<string>', 'exec', _ASYNC_COMPILE_FLAGS)",
      "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
      '  File "<string>", line 1',
      "    def g(:",
      "          ^",
      "SyntaxError: invalid syntax",
      "",
    ].join("\n");
    expect(withoutAdapterFrames(message)).toBe(
      [
        "Traceback (most recent call last):",
        '  File "<string>", line 1',
        "    def g(:",
        "          ^",
        "SyntaxError: invalid syntax",
      ].join("\n"),
    );
  });

  it("keeps the user's frames, and drops a header left without any", () => {
    const message = [
      "Traceback (most recent call last):",
      `  File "${pydevd}/pydevd_vars.py", line 305, in _run_with_interrupt_thread`,
      "    return original_func(py_db, frame, expression, is_exec)",
      '  File "/home/me/app/lib.py", line 9, in parse',
      "    raise ValueError(text)",
      "ValueError: bad",
    ].join("\n");
    expect(withoutAdapterFrames(message)).toBe(
      [
        "Traceback (most recent call last):",
        '  File "/home/me/app/lib.py", line 9, in parse',
        "    raise ValueError(text)",
        "ValueError: bad",
      ].join("\n"),
    );
    const only = [
      "Traceback (most recent call last):",
      `  File "${pydevd}/pydevd_vars.py", line 1, in f`,
      "    x()",
      "NameError: name 'nope' is not defined",
    ].join("\n");
    expect(withoutAdapterFrames(only)).toBe("NameError: name 'nope' is not defined");
  });

  it("keeps a user's frames in a folder named as the adapter's, outside site-packages (a clone of debugpy)", () => {
    const message = [
      "Traceback (most recent call last):",
      `  File "${pydevd}/pydevd_vars.py", line 305, in _run_with_interrupt_thread`,
      "    return original_func(py_db, frame, expression, is_exec)",
      '  File "/home/me/src/debugpy/examples/app.py", line 4, in __repr__',
      '    raise RuntimeError("repr failed")',
      '  File "/home/me/pydevd/pydevd.py", line 2, in helper',
      "    boom()",
      "RuntimeError: repr failed",
    ].join("\n");
    expect(withoutAdapterFrames(message)).toBe(
      [
        "Traceback (most recent call last):",
        '  File "/home/me/src/debugpy/examples/app.py", line 4, in __repr__',
        '    raise RuntimeError("repr failed")',
        '  File "/home/me/pydevd/pydevd.py", line 2, in helper',
        "    boom()",
        "RuntimeError: repr failed",
      ].join("\n"),
    );
    const separate = '  File "/venv/lib/python3.11/site-packages/pydevd.py", line 3, in settrace';
    expect(
      withoutAdapterFrames(`Traceback (most recent call last):\n${separate}\n    x()\nNameError: x`),
    ).toBe("NameError: x");
  });

  it("leaves a message without the adapter's frames as it is", () => {
    expect(withoutAdapterFrames("Unable to evaluate: could not find symbol value for zz")).toBe(
      "Unable to evaluate: could not find symbol value for zz",
    );
    const user =
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nZeroDivisionError: division by zero\n';
    expect(withoutAdapterFrames(user)).toBe(user);
  });
});

describe("withoutDebuggerFrames", () => {
  const debugpy = "/usr/lib/python3/dist-packages/debugpy";
  const note = (count: number) => `  (${count} left out)`;
  const stderr = (...lines: string[]) => lines.map((text) => ({ category: "stderr", text: `${text}\n` }));
  const texts = (entries: readonly { category: string; text: string }[]) =>
    entries.map(
      (entry) => `${entry.category === "stderr" ? "" : `${entry.category}: `}${entry.text.trimEnd()}`,
    );
  // What debugpy 1.6 on Python 3.11 writes for an uncaught exception (8 frames before the user's).
  const started = [
    '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main',
    "    return _run_code(code, main_globals, None,",
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    '  File "/usr/lib/python3.11/runpy.py", line 88, in _run_code',
    "    exec(code, run_globals)",
    `  File "${debugpy}/launcher/../../debugpy/__main__.py", line 39, in <module>`,
    "    cli.main()",
    `  File "${debugpy}/launcher/../../debugpy/../debugpy/server/cli.py", line 284, in run_file`,
    '    runpy.run_path(target, run_name="__main__")',
    `  File "${debugpy}/_vendored/pydevd/_pydevd_bundle/pydevd_runpy.py", line 123, in _run_code`,
    "    exec(code, run_globals)",
  ];
  const user = ['  File "/home/me/app/crash.py", line 5, in <module>', "    divide(1, 0)"];

  it("leaves out the frames before the user's, with the lines they quote, saying how many", () => {
    const entries = [
      { category: "stdout", text: "before the crash\n" },
      ...stderr(
        "Traceback (most recent call last):",
        ...started,
        ...user,
        "ZeroDivisionError: division by zero",
      ),
    ];
    expect(texts(withoutDebuggerFrames(entries, note))).toEqual([
      "stdout: before the crash",
      "Traceback (most recent call last):",
      "  (5 left out)",
      ...user,
      "ZeroDivisionError: division by zero",
    ]);
  });

  it("does so in each traceback of a chained exception, and for Python 3.12's frozen runpy", () => {
    const frozen = [
      '  File "<frozen runpy>", line 198, in _run_module_as_main',
      '  File "<frozen runpy>", line 88, in _run_code',
      `  File "${debugpy}/__main__.py", line 39, in <module>`,
      "    cli.main()",
    ];
    const entries = stderr(
      "Traceback (most recent call last):",
      '  File "/home/me/app/chained.py", line 3, in f',
      "    {}['k']",
      "KeyError: 'k'",
      "",
      "The above exception was the direct cause of the following exception:",
      "",
      "Traceback (most recent call last):",
      ...frozen,
      ...user,
      "ValueError: wrapped",
    );
    expect(texts(withoutDebuggerFrames(entries, note))).toEqual([
      "Traceback (most recent call last):",
      '  File "/home/me/app/chained.py", line 3, in f',
      "    {}['k']",
      "KeyError: 'k'",
      "",
      "The above exception was the direct cause of the following exception:",
      "",
      "Traceback (most recent call last):",
      "  (3 left out)",
      ...user,
      "ValueError: wrapped",
    ]);
  });

  it("keeps runpy's frames with no debugpy frame after them, and debugpy's after a user's frame", () => {
    const runpyOnly = stderr(
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3.11/runpy.py", line 88, in _run_code',
      "    exec(code, run_globals)",
      ...user,
      "ValueError: x",
    );
    expect(withoutDebuggerFrames(runpyOnly, note)).toBe(runpyOnly);
    const later = stderr(
      "Traceback (most recent call last):",
      ...user,
      `  File "${debugpy}/_vendored/pydevd/pydevd.py", line 1, in settrace`,
      "    x()",
      "ValueError: x",
    );
    expect(withoutDebuggerFrames(later, note)).toBe(later);
    // Also after the leading ones: the user's frame was taken for another thread's line between
    // debugpy's frames, and the one under it left out with them, counted as leading.
    const monkey = `  File "${debugpy}/_vendored/pydevd/_pydev_bundle/pydev_monkey.py", line 620, in new_execv`;
    const inner = stderr(
      "Traceback (most recent call last):",
      ...started,
      ...user,
      monkey,
      "    return getattr(os, original_name)(path, patch_args(args))",
      "FileNotFoundError: x",
    );
    expect(texts(withoutDebuggerFrames(inner, note))).toEqual([
      "Traceback (most recent call last):",
      "  (5 left out)",
      ...user,
      monkey,
      "    return getattr(os, original_name)(path, patch_args(args))",
      "FileNotFoundError: x",
    ]);
    // Of the leading frames, runpy's after debugpy's last stay too.
    const after = stderr(
      "Traceback (most recent call last):",
      `  File "${debugpy}/server/cli.py", line 284, in run_file`,
      "    runpy.run_path(target)",
      '  File "/usr/lib/python3.11/runpy.py", line 291, in run_path',
      "    return _run_module_code(code)",
      ...user,
      "ValueError: x",
    );
    expect(texts(withoutDebuggerFrames(after, note))).toEqual([
      "Traceback (most recent call last):",
      "  (1 left out)",
      '  File "/usr/lib/python3.11/runpy.py", line 291, in run_path',
      "    return _run_module_code(code)",
      ...user,
      "ValueError: x",
    ]);
  });

  it("keeps text that only mentions those frames, outside a traceback, and a clone of debugpy", () => {
    const mention = stderr(...started, "Traceback: see above");
    expect(withoutDebuggerFrames(mention, note)).toBe(mention);
    const indented = stderr("  Traceback (most recent call last):", ...started);
    expect(withoutDebuggerFrames(indented, note)).toBe(indented);
    const clone = stderr(
      "Traceback (most recent call last):",
      '  File "/home/me/src/debugpy/src/debugpy/server/cli.py", line 284, in run_file',
      "    run()",
      "ValueError: x",
    );
    expect(withoutDebuggerFrames(clone, note)).toBe(clone);
  });

  it("keeps a line of another stream inside the frames, after the note, and leaves out the frames around it", () => {
    const entries = [
      ...stderr("Traceback (most recent call last):", ...started.slice(0, 7)),
      { category: "stdout", text: "tick\n" },
      ...stderr(...started.slice(7), ...user, "ValueError: x"),
    ];
    expect(texts(withoutDebuggerFrames(entries, note))).toEqual([
      "Traceback (most recent call last):",
      "  (5 left out)",
      "stdout: tick",
      ...user,
      "ValueError: x",
    ]);
  });

  // Another thread's line, indented like a frame's code, written between debugpy's frames: it
  // was taken for a line the frame quotes and left out with it.
  it("keeps a line of another thread indented like a frame's code, told from the code by the file", () => {
    const main = `${debugpy}/launcher/../../debugpy/__main__.py`;
    const files: Record<string, string[]> = {
      [main]: Array.from({ length: 39 }, () => "").fill("cli.main()", 38),
    };
    const source = (path: string, line: number) => files[path]?.[line - 1];
    const worker = "    worker: 3 of 5 done";
    // Right under the frame's `File` line, and under its code.
    for (const at of [6, 7]) {
      const entries = stderr(
        "Traceback (most recent call last):",
        ...started.slice(0, at),
        worker,
        ...started.slice(at),
        ...user,
        "ValueError: x",
      );
      expect(texts(withoutDebuggerFrames(entries, note, source))).toEqual([
        "Traceback (most recent call last):",
        "  (5 left out)",
        worker,
        ...user,
        "ValueError: x",
      ]);
      // Where the file cannot be read, neither line is known to be the code: both stay.
      expect(texts(withoutDebuggerFrames(entries, note))).toEqual([
        "Traceback (most recent call last):",
        "  (5 left out)",
        ...(at === 6 ? [worker, "    cli.main()"] : ["    cli.main()", worker]),
        ...user,
        "ValueError: x",
      ]);
    }
    // After a frozen runpy frame, which quotes nothing.
    const frozen = stderr(
      "Traceback (most recent call last):",
      '  File "<frozen runpy>", line 198, in _run_module_as_main',
      worker,
      ...started.slice(5),
      ...user,
      "ValueError: x",
    );
    expect(texts(withoutDebuggerFrames(frozen, note))).toEqual([
      "Traceback (most recent call last):",
      "  (4 left out)",
      worker,
      ...user,
      "ValueError: x",
    ]);
  });
});
