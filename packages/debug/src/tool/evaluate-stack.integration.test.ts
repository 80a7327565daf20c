import { afterEach, expect, it, vi } from "vitest";
import { DapConnection } from "../dap/dap-connection.js";
import { debugRun, remaining } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

// An evaluate without a frame is answered in the frame the stop is reported at: the stack of the
// stopped thread the stop already listed, not a new `stackTrace` at every evaluate; a new stop
// lists it again.
describeDebugpy("debug on debugpy: evaluate without a frame", (project) => {
  afterEach(() => vi.restoreAllMocks());

  it("asks the stopped thread's stack once per stop, however many evaluates follow", async () => {
    // Counts the requests sent to the adapter (every connection's, only this session's here).
    const sent = vi.spyOn(DapConnection.prototype, "request");
    const stackTraces = () => sent.mock.calls.filter(([command]) => command === "stackTrace").length;
    const { run, supervisor, call, sessionPids } = debugRun(project.dir);
    let pids: number[] = [];
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [6] });
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.text, launch.text).toContain("app.py:6 in compute");
      pids = sessionPids();
      // The stop report listed the stopped thread's stack: evaluates use it.
      const afterLaunch = stackTraces();
      expect(afterLaunch).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++)
        expect((await call({ op: "evaluate", expression: "len(values) + total" })).text).toBe("4 (int)");
      expect(stackTraces()).toBe(afterLaunch);

      // A stop nobody described yet (the public API's resume lists no frame): the first
      // evaluate asks once, in the new stop's frame; the next ones ask nothing.
      const session = supervisor.conversation("conv-1").session!;
      const step = await session.resume("next");
      expect(step.kind).toBe("stopped");
      const beforeEvaluates = stackTraces();
      expect((await session.evaluate("total")).result).toBe("1");
      expect((await session.evaluate("v")).result).toBe("1");
      expect((await session.evaluate("total + v")).result).toBe("2");
      expect(stackTraces()).toBe(beforeEvaluates + 1);
    } finally {
      await run.dispose();
    }
    expect(remaining(pids)).toEqual([]);
  });
});
