import { describe, expect, it } from "vitest";
import { SaveChecks } from "./save-checks.js";

/** Checks on a clock the test moves. */
function checks(startMs = 2_000) {
  const clock = { now: 1_000 };
  const tracked = new SaveChecks({ tokenPrefix: "rust-analyzer/flycheck/", startMs, now: () => clock.now });
  return { clock, tracked };
}

describe("SaveChecks", () => {
  it("counts a save checked once a run that began after it has ended", () => {
    const { clock, tracked } = checks();
    const save = tracked.saved();
    expect(tracked.state(save)).toBe("pending");
    expect(tracked.onProgress("rust-analyzer/flycheck/0", "begin")).toBe(true);
    clock.now += 3_000; // a long cargo check: running, so not "not started"
    expect(tracked.state(save)).toBe("pending");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(save)).toBe("checked");
  });

  it("does not count the end of a run that began before the save", () => {
    const { tracked } = checks();
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    const save = tracked.saved();
    // rust-analyzer cancels the run for the new save: end, then a new begin on the same token.
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(save)).toBe("pending");
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(save)).toBe("checked");
  });

  it("waits for a later save's run before counting an earlier save checked", () => {
    const { tracked } = checks();
    const first = tracked.saved();
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(first)).toBe("checked");
    tracked.saved(); // another file: its run rewrites every file's diagnostics
    expect(tracked.state(first)).toBe("pending");
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(first)).toBe("checked");
  });

  it("says a save was not checked when no run began within the bound", () => {
    const { clock, tracked } = checks(2_000);
    const save = tracked.saved();
    clock.now += 1_500;
    expect([tracked.state(save), tracked.startLeft()]).toEqual(["pending", 500]);
    clock.now += 500;
    expect([tracked.state(save), tracked.startLeft()]).toEqual(["not-started", 0]);
  });

  it("needs every run to end, and ignores other progress", () => {
    const { tracked } = checks();
    const save = tracked.saved();
    expect(tracked.onProgress("rustAnalyzer/Indexing", "begin")).toBe(false);
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    tracked.onProgress("rust-analyzer/flycheck/1", "begin");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(save)).toBe("pending");
    tracked.onProgress("rust-analyzer/flycheck/1", "end");
    expect(tracked.state(save)).toBe("checked");
  });

  it("counts a file never saved through us as checked by any finished run", () => {
    const { tracked } = checks();
    expect(tracked.state(0)).toBe("checked");
    tracked.onProgress("rust-analyzer/flycheck/0", "begin"); // the run at start-up
    expect(tracked.state(0)).toBe("pending");
  });
});
