import { PassThrough } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { describe, expect, it, vi } from "vitest";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import { DapConnection } from "../dap/dap-connection.js";
import { encodeFrame, FrameParser } from "../dap/framing.js";
import { DebugError } from "../errors/debug-error.js";
import { BreakpointStore } from "./breakpoint-store.js";
import { SessionCore } from "./session-core.js";
import { resume } from "./stepping.js";

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

describe("SessionCore stops", () => {
  it("keeps the threads of one stop together, reported at the one the adapter focuses", async () => {
    const input = new PassThrough();
    const adapter = { ...silentAdapter(), connection: new DapConnection(input, new PassThrough()) };
    const core = new SessionCore({
      adapterId: "lldb",
      description: "lldb: prog",
      root: "/tmp",
      adapter,
      breakpoints: new BreakpointStore(),
      resumeWaitMs: 1000,
      terminateDebuggee: true,
      evaluateContext: "watch",
    });
    core.state = "running";
    const send = (seq: number, body: Record<string, unknown>): void => {
      const json = JSON.stringify({
        seq,
        type: "event",
        event: "stopped",
        body: { allThreadsStopped: true, ...body },
      });
      input.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    };
    const first = core.nextOutcome(5000);
    // As lldb-dap 19 sent them after a step: by thread index, the focused (stepped) thread last.
    send(1, { reason: "breakpoint", threadId: 922, hitBreakpointIds: [1], preserveFocusHint: true });
    send(2, { reason: "breakpoint", threadId: 923, hitBreakpointIds: [1], preserveFocusHint: true });
    send(3, { reason: "step", threadId: 921, preserveFocusHint: false, threadCausedFocus: true });
    expect((await first).kind).toBe("stopped");
    await new Promise((resolve) => setImmediate(resolve));
    expect(core.lastStop?.threadId).toBe(921);
    expect(core.lastStop?.reason).toBe("step");
    expect([...core.alsoStopped.keys()].sort((a, b) => a - b)).toEqual([922, 923]);
    core.invalidate();
    expect(core.alsoStopped.size).toBe(0);
  });
});

describe("SessionCore waits", () => {
  // The breakpoints' wait for a hit: its bound counts from the adapter's answer (the breakpoint
  // is set then), not from the request: a slow answer (lldb takes ~100 ms) does not eat it, and
  // the bound can be short.
  it("counts a wait's bound from when `from` settles, waiting from the call", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const core = new SessionCore({
        adapterId: "lldb",
        description: "lldb: prog",
        root: "/tmp",
        adapter: silentAdapter(),
        breakpoints: new BreakpointStore(),
        resumeWaitMs: 1000,
        terminateDebuggee: true,
        evaluateContext: "watch",
      });
      core.state = "running";
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      let outcome: string | undefined;
      void core.waitOutcome(100, answered).then((done) => (outcome = done.kind));
      await vi.advanceTimersByTimeAsync(500);
      expect(outcome).toBeUndefined();
      answer();
      await vi.advanceTimersByTimeAsync(99);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBe("timeout");
      // A refused request ends the wait the same way, and a wait without `from` counts from the call.
      let refused: string | undefined;
      void core.waitOutcome(100, Promise.reject(new Error("refused"))).then((done) => (refused = done.kind));
      let plain: string | undefined;
      void core.waitOutcome(100).then((done) => (plain = done.kind));
      await vi.advanceTimersByTimeAsync(100);
      expect([refused, plain]).toEqual(["timeout", "timeout"]);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A debugpy session stopped at a breakpoint on thread 1, with frame 2 and reference 5 known. */
function stoppedCore(adapter: AdapterProcess): SessionCore {
  const core = new SessionCore({
    adapterId: "debugpy",
    description: "debugpy: app.py",
    root: "/tmp",
    adapter,
    breakpoints: new BreakpointStore(),
    resumeWaitMs: 1000,
    terminateDebuggee: true,
    evaluateContext: "repl",
  });
  core.state = "stopped";
  core.lastStop = {
    reason: "breakpoint",
    description: undefined,
    text: undefined,
    threadId: 1,
    hitBreakpointIds: [],
  };
  core.validFrames.add(2);
  core.learnReference({ variablesReference: 5, namedVariables: 3 });
  return core;
}

describe("SessionCore resumes", () => {
  it("leaves the stop and its ids as they were when the adapter refuses a step", async () => {
    // An adapter that refuses every request (debugpy refuses a step on a thread it lacks so).
    const toClient = new PassThrough();
    const fromClient = new PassThrough();
    const parser = new FrameParser();
    fromClient.on("data", (chunk: Buffer) => {
      for (const message of parser.push(chunk) as DebugProtocol.Request[]) {
        toClient.write(
          encodeFrame({
            seq: 0,
            type: "response",
            request_seq: message.seq,
            command: message.command,
            success: false,
            message: "Wrong ID sent from the client: 1",
          }),
        );
      }
    });
    const adapter = { ...silentAdapter(), connection: new DapConnection(toClient, fromClient) };
    const core = stoppedCore(adapter);

    const error = await resume(core, "next").catch((caught: unknown) => caught);
    expect((error as DebugError).code).toBe("DEBUG_ADAPTER_ERROR");
    expect((error as DebugError).message).toBe("the adapter refused next: Wrong ID sent from the client: 1");
    expect(core.state).toBe("stopped");
    expect([...core.validFrames]).toEqual([2]);
    expect([...core.validReferences]).toEqual([5]);
    expect(core.childCounts.get(5)).toEqual({ indexed: undefined, named: 3 });
  });

  it("drops the stop's ids when a step times out: the adapter may have run it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const core = stoppedCore(silentAdapter());
      const stepped = resume(core, "next").catch((caught: unknown) => caught);
      await vi.advanceTimersByTimeAsync(10_001);
      const error = await stepped;
      expect((error as DebugError).code).toBe("DEBUG_TIMEOUT");
      expect([...core.validFrames]).toEqual([]);
      expect([...core.validReferences]).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
