import { describe, expect, it } from "vitest";
import { codeOnly } from "./code-only.js";

describe("codeOnly", () => {
  it("blanks comments and strings, keeping columns", () => {
    const line = '  count += 1; // mentions count and "count"';
    const code = codeOnly(line, "typescript");
    expect(code).toHaveLength(line.length);
    expect(code.trimEnd()).toBe("  count += 1;");
  });

  it("blanks quoted text with escapes and block comments within the line", () => {
    expect(codeOnly('f("a \\" count", count) /* count */ + g', "typescript")).toBe(
      `f(${" ".repeat(12)}, count) ${" ".repeat(11)} + g`,
    );
  });

  it("takes # as a comment in Python only", () => {
    expect(codeOnly("x = count  # count", "python").trimEnd()).toBe("x = count");
    expect(codeOnly('#include "count.h"', "c")).toBe(`#include ${" ".repeat(9)}`);
  });
});
