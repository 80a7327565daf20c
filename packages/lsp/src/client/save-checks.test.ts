import { describe, expect, it } from "vitest";
import { quietMs, SaveChecks } from "./save-checks.js";

const token = "rust-analyzer/flycheck/0";

/** Checks on a clock the test moves. */
function checks(startMs = 2_000) {
  const clock = { now: 1_000 };
  const tracked = new SaveChecks({ tokenPrefix: "rust-analyzer/flycheck/", startMs, now: () => clock.now });
  /** The server's run: begin, `ms` later end. */
  const runFor = (ms = 100, id = token) => {
    tracked.onProgress(id, "begin");
    clock.now += ms;
    tracked.onProgress(id, "end");
  };
  return { clock, tracked, runFor };
}

describe("SaveChecks", () => {
  it("counts a save checked once a run that began after it has ended and none began since", () => {
    const { clock, tracked } = checks();
    const save = tracked.saved();
    expect(tracked.state(save)).toBe("pending");
    expect(tracked.onProgress(token, "begin")).toBe(true);
    clock.now += 3_000; // a long cargo check: running, so not "not started"
    expect(tracked.state(save)).toBe("pending");
    tracked.onProgress(token, "end");
    expect([tracked.state(save), tracked.waitLeft()]).toEqual(["pending", quietMs]);
    clock.now += quietMs;
    expect(tracked.state(save)).toBe("checked");
  });

  it("does not count a run that began before the save, nor one cancelled for a save that crossed its begin", () => {
    const { clock, tracked, runFor } = checks();
    tracked.onProgress(token, "begin");
    const save = tracked.saved();
    // rust-analyzer cancels the run for the new save: end, then, after its debounce, a new begin.
    tracked.onProgress(token, "end");
    clock.now += 60;
    expect(tracked.state(save)).toBe("pending");
    runFor();
    clock.now += quietMs;
    expect(tracked.state(save)).toBe("checked");
    // A save sent as the server began a run: counted as covered at the begin, but the run is
    // cancelled and begins again within the quiet time, so the save is not read as checked.
    const crossing = tracked.saved();
    tracked.onProgress(token, "begin");
    clock.now += 5;
    tracked.onProgress(token, "end");
    clock.now += 60;
    expect(tracked.state(crossing)).toBe("pending");
    tracked.onProgress(token, "begin");
    expect(tracked.state(crossing)).toBe("pending");
    clock.now += 200;
    tracked.onProgress(token, "end");
    clock.now += quietMs;
    expect(tracked.state(crossing)).toBe("checked");
  });

  it("waits for a later save's run before counting an earlier save checked", () => {
    const { clock, tracked, runFor } = checks();
    const first = tracked.saved();
    runFor();
    clock.now += quietMs;
    expect(tracked.state(first)).toBe("checked");
    tracked.saved(); // another file: its run rewrites every file's diagnostics
    expect(tracked.state(first)).toBe("pending");
    runFor();
    clock.now += quietMs;
    expect(tracked.state(first)).toBe("checked");
  });

  it("says a save was not checked when no run began within the bound", () => {
    const { clock, tracked } = checks(2_000);
    const save = tracked.saved();
    clock.now += 1_500;
    expect([tracked.state(save), tracked.waitLeft()]).toEqual(["pending", 500]);
    clock.now += 500;
    expect([tracked.state(save), tracked.waitLeft()]).toEqual(["not-started", 0]);
  });

  it("counts what every run covered once all have ended, whatever order they end in", () => {
    const { clock, tracked } = checks();
    expect(tracked.onProgress("rustAnalyzer/Indexing", "begin")).toBe(false);
    tracked.onProgress("rust-analyzer/flycheck/1", "begin"); // began before the save
    const save = tracked.saved();
    tracked.onProgress("rust-analyzer/flycheck/0", "begin");
    tracked.onProgress("rust-analyzer/flycheck/0", "end");
    expect(tracked.state(save)).toBe("pending");
    tracked.onProgress("rust-analyzer/flycheck/1", "end");
    clock.now += quietMs;
    expect(tracked.state(save)).toBe("checked");
  });

  it("needs a finished run for a file never saved through us", () => {
    const { clock, tracked, runFor } = checks();
    expect(tracked.state(0)).toBe("not-started");
    runFor(); // the run at start-up
    clock.now += quietMs;
    expect(tracked.state(0)).toBe("checked");
  });
});
