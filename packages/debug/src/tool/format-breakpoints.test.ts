import { describe, expect, it } from "vitest";
import { BreakpointStore, type BreakpointResult } from "../session/breakpoint-store.js";
import { formatBreakpointResults, formatBreakpointStore } from "./format-breakpoints.js";
import { lineRanges } from "../internal/line-ranges.js";

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

  it("lists files by path and each file's lines in order, whatever order they were set in", () => {
    const store = new BreakpointStore();
    store.set("/nowhere/m10.py", [2]);
    store.set("/nowhere/b.py", [16, 9]);
    store.set("/nowhere/m2.py", [1]);
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "b.py: lines 9, 16 (pending: sent at launch or attach)\n" +
        "m2.py: lines 1 (pending: sent at launch or attach)\n" +
        "m10.py: lines 2 (pending: sent at launch or attach)",
    );
    store.store("/nowhere/b.py", [result(9, true), result(16, false)]);
    expect(formatBreakpointStore(store, "/nowhere").split("\n").slice(0, 3)).toEqual([
      "b.py",
      "  line 9: verified",
      "  line 16: NOT verified",
    ]);
  });

  it("says a file of another language than the session's waits for a session of its own", () => {
    const store = new BreakpointStore();
    store.set("/nowhere/go/main.go", [8]);
    store.skip("/nowhere/go/main.go", "a Go file, not for this lldb session; sent to a delve session");
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "go/main.go: lines 8 (pending: a Go file, not for this lldb session; sent to a delve session)",
    );
    // Once the session has ended the file is simply pending again.
    expect(formatBreakpointStore(store, "/nowhere", { ended: true })).toBe(
      "go/main.go: lines 8 (pending: sent at launch or attach)",
    );
  });

  // A file whose setting failed in the live session was listed "pending: sent at launch or attach".
  it("says what the live session holds of a file whose setting failed, and counts such lines apart", () => {
    const store = new BreakpointStore();
    store.set("/nowhere/main.go", [15]);
    store.fail("/nowhere/main.go", "cleared in this session, so the program stops at none of them: why");
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "main.go: lines 15 (cleared in this session, so the program stops at none of them: why)",
    );
    // Sent again to the next session: pending once this one has ended, and after a reset.
    expect(formatBreakpointStore(store, "/nowhere", { ended: true })).toBe(
      "main.go: lines 15 (pending: sent at launch or attach)",
    );
    // Past the listing's 30 lines they are counted as what they are, not as pending.
    const full = new BreakpointStore();
    full.set(
      "/nowhere/a.py",
      Array.from({ length: 30 }, (_, index) => index + 1),
    );
    full.store(
      "/nowhere/a.py",
      Array.from({ length: 30 }, (_, index) => result(index + 1, true)),
    );
    full.set("/nowhere/b.go", [4, 8]);
    full.fail("/nowhere/b.go", "cleared in this session: why");
    full.set("/nowhere/c.go", [2]);
    expect(formatBreakpointStore(full, "/nowhere").split("\n").at(-1)).toBe(
      "… 3 more breakpoints in 2 files not shown: 1 pending, 2 whose setting failed",
    );
    store.resetResults();
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "main.go: lines 15 (pending: sent at launch or attach)",
    );
  });
  // A clear whose request failed dropped the file: status said nothing of the lines the live
  // session may still stop at.
  it("says the lines a failed clear may have left in the live session, and drops them after it", () => {
    const store = new BreakpointStore();
    store.failClear("/nowhere/main.go", [11, 12], "not cleared in this session: why");
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "main.go: lines 11–12 (not cleared in this session: why)",
    );
    expect(formatBreakpointStore(store, "/nowhere", { ended: true })).toBe("no breakpoints");
    store.resetResults();
    expect(store.files.size).toBe(0);
    store.failClear("/nowhere/main.go", [11], "not cleared in this session: why");
    store.set("/nowhere/main.go", [3]);
    expect(formatBreakpointStore(store, "/nowhere")).toBe(
      "main.go: lines 3 (pending: sent at launch or attach)",
    );
  });
});
