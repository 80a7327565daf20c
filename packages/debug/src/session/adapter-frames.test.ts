import { describe, expect, it } from "vitest";
import { withoutAdapterFrames } from "./adapter-frames.js";

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
