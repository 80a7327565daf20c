import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import { DapConnection } from "../dap/dap-connection.js";
import { DebugError } from "../errors/debug-error.js";
import { BreakpointStore } from "./breakpoint-store.js";
import { SessionCore } from "./session-core.js";

/** An adapter that reads requests and never answers (an expression that runs for ever). */
function silentAdapter(): AdapterProcess {
  const connection = new DapConnection(new PassThrough(), new PassThrough());
  return {
    connection,
    child: undefined,
    socket: undefined,
    exited: new Promise(() => undefined),
    stderrTail: () => "",
    reaps: false,
    adapterPid: () => undefined,
  };
}

describe("SessionCore requests", () => {
  it("words a request with no answer as a timeout, not as a refusal", async () => {
    const core = new SessionCore({
      adapterId: "debugpy",
      description: "debugpy: app.py",
      root: "/tmp",
      adapter: silentAdapter(),
      breakpoints: new BreakpointStore(),
      resumeWaitMs: 1000,
      terminateDebuggee: true,
      evaluateContext: "repl",
    });
    const error = await core.request("evaluate", { expression: "sleep(60)" }, 50).catch((caught) => caught);
    expect(error).toBeInstanceOf(DebugError);
    expect((error as DebugError).code).toBe("DEBUG_TIMEOUT");
    expect((error as DebugError).message).toBe(
      "evaluate timed out: no answer within 50 ms. The expression may still be running in the program, " +
        "and the next request may wait until it ends; op 'terminate' ends the session if it never does",
    );
    const threads = await core.request("threads", undefined, 50).catch((caught) => caught);
    expect((threads as DebugError).message).toBe(
      "threads timed out: the adapter gave no answer within 50 ms; op 'terminate' ends the session if it stays unresponsive",
    );
  });
});
