import { describe, expect, it } from "vitest";
import type { BreakpointResult } from "../session/breakpoint-store.js";
import { formatBreakpointResults, lineRanges } from "./format-breakpoints.js";

function result(requested: number, verified: boolean): BreakpointResult {
  return { requested, line: requested, verified, message: undefined, id: requested };
}

describe("breakpoint listings", () => {
  it("writes lines as sorted ranges", () => {
    expect(lineRanges([12, 3, 4, 5, 9, 3])).toBe("3–5, 9, 12");
  });

  it("shows 30 answers and counts the rest by verdict, naming the unverified lines", () => {
    const results = Array.from({ length: 45 }, (_, index) => result(index + 1, index % 7 !== 3));
    const text = formatBreakpointResults("/nowhere/a.py", results, "/nowhere");
    const lines = text.split("\n");
    expect(lines).toHaveLength(32);
    expect(lines[0]).toBe("a.py");
    expect(lines[30]).toBe("  line 30: verified");
    expect(lines[31]).toBe("  … 15 more breakpoints not shown: 13 verified, 2 NOT verified (lines 32, 39)");
  });
});
