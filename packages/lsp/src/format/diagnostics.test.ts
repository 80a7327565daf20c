import { describe, expect, it } from "vitest";
import { formatDiagnostic, oneLine, withRelativePaths } from "./diagnostics.js";

describe("oneLine", () => {
  it("joins a sentence's next line with a space, and lines without a stop with a semicolon", () => {
    expect(
      oneLine("Type 'string' is not assignable to type 'number'.\n  Property 'x' is missing in type 'A'."),
    ).toBe("Type 'string' is not assignable to type 'number'. Property 'x' is missing in type 'A'.");
    expect(
      oneLine(
        'Argument of type "Literal[\'x\']" cannot be assigned to parameter "b" of type "int"\n    "Literal[\'x\']" is not assignable to "int"',
      ),
    ).toBe(
      'Argument of type "Literal[\'x\']" cannot be assigned to parameter "b" of type "int"; "Literal[\'x\']" is not assignable to "int"',
    );
    expect(oneLine("one line\r\n\r\n")).toBe("one line");
  });
});

describe("paths in messages", () => {
  it("shows paths under the working directory relative to it, and leaves other paths and lookalikes", () => {
    expect(
      withRelativePaths(
        "see /work/app/sub/h.h:2:5 and /work/app2/x.h and /usr/include/stdio.h and /work/app",
        "/work/app",
      ),
    ).toBe("see sub/h.h:2:5 and /work/app2/x.h and /usr/include/stdio.h and /work/app");
    expect(withRelativePaths("/a/b.c", "/")).toBe("/a/b.c");
    expect(withRelativePaths("/a/b.c", undefined)).toBe("/a/b.c");
  });

  it("formats a diagnostic whose note names another file under the working directory", () => {
    const diagnostic = {
      range: { start: { line: 1, character: 5 }, end: { line: 1, character: 10 } },
      severity: 1 as const,
      code: "conflicting_types",
      source: "clang",
      message: "Conflicting types for 'twice'\n\n/w/sub/h.h:2:5: note: previous declaration is here",
    };
    expect(formatDiagnostic("main.c", diagnostic, "/w")).toBe(
      "main.c:2:6 error [conflicting_types] Conflicting types for 'twice'; sub/h.h:2:5: note: previous declaration is here (clang)",
    );
  });
});
