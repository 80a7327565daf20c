import { describe, expect, it } from "vitest";
import { expressionError } from "./expression-error.js";

describe("expressionError", () => {
  it("takes Python's exception line as the error and keeps the user's frames, not the expression's own", () => {
    const message = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      '  File "/w/app.py", line 5, in compute',
      "    for v in values:",
      "TypeError: 'NoneType' object is not iterable",
    ].join("\n");
    expect(expressionError("debugpy", message)).toEqual({
      error: "TypeError: 'NoneType' object is not iterable",
      detail: ['  File "/w/app.py", line 5, in compute', "    for v in values:"],
    });
  });

  it("keeps a syntax error's caret, and a multi-line exception message whole", () => {
    const syntax = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1',
      "    def g(:",
      "          ^",
      "SyntaxError: invalid syntax",
    ];
    expect(expressionError("debugpy", syntax.join("\n"))).toEqual({
      error: "SyntaxError: invalid syntax",
      detail: ["    def g(:", "          ^"],
    });
    const multi = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      "ValueError: first",
      "second",
    ];
    expect(expressionError("debugpy", multi.join("\n"))?.error).toBe("ValueError: first\nsecond");
  });

  it("takes an exception message with indented lines whole, as debugpy gives it", () => {
    // pydantic's ValidationError, a message of several lines with indented ones (as debugpy sent
    // it): the error was cut at the last indented line, or the failure read as the adapter's refusal.
    const validation = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      '  File "<string>", line 1, in <genexpr>',
      "ValueError: 1 validation error for M",
      "x",
      "  field required (type=value_error.missing)",
    ];
    expect(expressionError("debugpy", validation.join("\n"))).toEqual({
      error: "ValueError: 1 validation error for M\nx\n  field required (type=value_error.missing)",
      detail: ['  File "<string>", line 1, in <genexpr>'],
    });
    const called = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      '  File "/w/app.py", line 5, in check',
      "    raise ValueError(report)",
      "ValueError: first",
      "  indented",
      "last",
    ];
    expect(expressionError("debugpy", called.join("\n"))).toEqual({
      error: "ValueError: first\n  indented\nlast",
      detail: ['  File "/w/app.py", line 5, in check', "    raise ValueError(report)"],
    });
  });

  it("keeps the frames nearest the error of a deep traceback, counting the rest", () => {
    const frames = Array.from({ length: 20 }, (_, i) => [
      `  File "/w/r.py", line ${i + 1}, in f`,
      "    return f(n - 1)",
    ]).flat();
    const found = expressionError(
      "debugpy",
      ["Traceback (most recent call last):", ...frames, "RecursionError: too deep"].join("\n"),
    );
    expect(found?.detail[0]).toBe("(28 earlier lines left out)");
    expect(found?.detail.slice(1)).toEqual(frames.slice(-12));
  });

  it("reads lldb's error without its expression number, and delve's without its prefix", () => {
    expect(
      expressionError(
        "lldb",
        "error: <user expression 3>:1:1: use of undeclared identifier 'q'\n    1 | q\n      | ^",
      ),
    ).toEqual({ error: "use of undeclared identifier 'q'", detail: ["    1 | q", "      | ^"] });
    expect(expressionError("lldb", "evaluate failed")).toEqual({ error: "lldb gave no reason", detail: [] });
    expect(expressionError("delve", "Unable to evaluate expression: index out of bounds")).toEqual({
      error: "index out of bounds",
      detail: [],
    });
  });

  it("finds no failed expression in a refusal of another shape", () => {
    expect(expressionError("debugpy", "Unable to find thread to evaluate")).toBeUndefined();
    expect(expressionError("lldb", "invalid frame")).toBeUndefined();
    expect(expressionError("delve", "unknown goroutine 9")).toBeUndefined();
    expect(expressionError("dart", "Unable to evaluate expression: x")).toBeUndefined();
    expect(expressionError("debugpy", "")).toBeUndefined();
  });
});
