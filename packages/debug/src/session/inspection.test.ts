import { PassThrough } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { describe, expect, it } from "vitest";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { DapConnection } from "../dap/dap-connection.js";
import { encodeFrame, FrameParser } from "../dap/framing.js";
import { formatFrames } from "../tool/format.js";
import { BreakpointStore } from "./breakpoint-store.js";
import type { DebugError } from "../errors/debug-error.js";
import { evaluate, isLengthEntry, scopes, stack, variables } from "./inspection.js";
import { SessionCore } from "./session-core.js";
import type { StopInfo } from "./session-state.js";

/** How an adapter answers `totalFrames` for a page from `start` of `listed` frames. */
type TotalRule = (start: number, listed: number, depth: number) => number;

/** lldb-dap from LLVM 20 (StackTraceRequestHandler): the frames listed, plus 20 while more exist. */
const lldbDap20: TotalRule = (start, listed, depth) => start + listed + (start + listed >= depth ? 0 : 20);
/** debugpy: the stack's depth. */
const exact: TotalRule = (_start, _listed, depth) => depth;

/**
 * A stopped session on thread 1 whose adapter answers `stackTrace` for a stack `depth` frames
 * deep (frame ids 1000 + index), its `totalFrames` by `rule`; lldb-dap ≥ 20 is not installed
 * here, so its answers are played from its source.
 */
function stoppedSession(adapterId: AdapterId, depth: number, rule: TotalRule) {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const parser = new FrameParser();
  const asked: DebugProtocol.StackTraceArguments[] = [];
  fromClient.on("data", (chunk: Buffer) => {
    for (const message of parser.push(chunk) as DebugProtocol.Request[]) {
      const args = message.arguments as DebugProtocol.StackTraceArguments;
      asked.push(args);
      const start = args.startFrame ?? 0;
      const end = args.levels ? Math.min(depth, start + args.levels) : depth;
      const stackFrames = Array.from({ length: Math.max(0, end - start) }, (_, i) => ({
        id: 1000 + start + i,
        name: `down`,
        line: 5,
        column: 1,
      }));
      toClient.write(
        encodeFrame({
          seq: 0,
          type: "response",
          request_seq: message.seq,
          command: message.command,
          success: true,
          body: { stackFrames, totalFrames: rule(start, stackFrames.length, depth) },
        }),
      );
    }
  });
  const adapter: AdapterProcess = {
    connection: new DapConnection(toClient, fromClient),
    child: undefined,
    socket: undefined,
    exited: new Promise(() => undefined),
    stderrTail: () => "",
    reaps: false,
    adapterPid: () => undefined,
  };
  const core = new SessionCore({
    adapterId,
    description: `${adapterId}: deep`,
    root: "/",
    adapter,
    breakpoints: new BreakpointStore(),
    resumeWaitMs: 1000,
    terminateDebuggee: true,
    evaluateContext: "watch",
  });
  core.state = "stopped";
  core.lastStop = {
    reason: "breakpoint",
    description: undefined,
    text: undefined,
    threadId: 1,
    hitBreakpointIds: [],
  };
  const page = async (start: number) => {
    const found = await stack(core, undefined, start);
    return formatFrames(found.threadId, found.frames, found, "/");
  };
  return { core, asked, page };
}

describe("stack pages", () => {
  it("gives no count from lldb-dap's guessed total, and counts once the page reaches the bottom", async () => {
    const { page, asked } = stoppedSession("lldb", 100, lldbDap20);
    const first = await page(0);
    expect(first.split("\n")[0]).toBe("thread 1");
    expect(first).toMatch(
      /\n#29 frame \d+ down at <no source>\n… more frames from #30 \(not counted\): list them with \{"op":"stack","start_frame":30\}$/,
    );
    // lldb-dap answers 30 + 31 + 20 = 81 here: neither a header total nor a count of the rest.
    const second = await page(30);
    expect(second.split("\n")[0]).toBe("thread 1, frames #30–#59");
    expect(second).toMatch(
      /\n… more frames from #60 \(not counted\): list them with \{"op":"stack","start_frame":60\}$/,
    );
    const last = await page(90);
    expect(last.split("\n")[0]).toBe("thread 1, frames #90–#99 of 100");
    expect(last).toMatch(/\n#99 frame \d+ down at <no source>$/);
    // One frame past the page is asked for, to learn whether more exist.
    expect(asked.map((args) => args.levels)).toEqual([31, 31, 31]);
  });

  it("ends exactly at a page's end: a full last page says nothing more exists", async () => {
    const { page } = stoppedSession("lldb", 60, lldbDap20);
    const second = await page(30);
    expect(second.split("\n")[0]).toBe("thread 1, frames #30–#59 of 60");
    expect(second).not.toContain("more frames");
  });

  it("counts the rest from debugpy's exact total", async () => {
    const { page } = stoppedSession("debugpy", 100, exact);
    expect(await page(30)).toMatch(
      /^thread 1, frames #30–#59 of 100\n[^]*\n… 40 more frames \(#60–#99\): list them with \{"op":"stack","start_frame":60\}$/,
    );
  });

  it("refuses a start past the bottom with the depth counted from the frames, not the guess", async () => {
    const { core } = stoppedSession("lldb", 100, lldbDap20);
    await expect(stack(core, undefined, 120)).rejects.toThrow(
      "start_frame 120 is past the end of thread 1's stack: it has 100 frames (#0–#99); give 0 to 99",
    );
    // Just past the bottom.
    await expect(stack(core, undefined, 100)).rejects.toThrow(
      "start_frame 100 is past the end of thread 1's stack: it has 100 frames (#0–#99); give 0 to 99",
    );
  });
});

describe("isLengthEntry", () => {
  it("knows debugpy's read-only len() and delve's len(<container>), not a key named len()", () => {
    const readOnly = { attributes: ["readOnly" as const] };
    expect(
      isLengthEntry({ name: "len()", value: "120", variablesReference: 0, presentationHint: readOnly }),
    ).toBe(true);
    // As dlv 1.20 sends it for a map it loaded 64 of 120 keys of.
    const delve = {
      name: "len()",
      value: "120",
      type: "int",
      presentationHint: {},
      evaluateName: "len(m)",
      variablesReference: 0,
    };
    expect(isLengthEntry(delve)).toBe(true);
    // A map key "len()": named with its quotes, evaluated by index.
    expect(isLengthEntry({ ...delve, name: '"len()"', evaluateName: 'm["len()"]', value: "7" })).toBe(false);
    expect(isLengthEntry({ ...delve, evaluateName: 'm["len()"]' })).toBe(false);
    expect(isLengthEntry({ name: "len()", value: "120", variablesReference: 0 })).toBe(false);
  });
});

/** An answer of a played adapter that refuses the request with `message`. */
class Refusal {
  constructor(readonly message: string) {}
}

/**
 * A session core on a played adapter: `answer` gives the body of each request's response (a
 * {@link Refusal}: the request is refused); every request's command is recorded in `asked`.
 */
function playedSession(
  options: { adapterId: AdapterId; description: string; evaluateContext: "watch" | "repl" },
  answer: (message: DebugProtocol.Request) => unknown,
) {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const parser = new FrameParser();
  const asked: string[] = [];
  fromClient.on("data", (chunk: Buffer) => {
    for (const message of parser.push(chunk) as DebugProtocol.Request[]) {
      asked.push(message.command);
      const body = answer(message);
      toClient.write(
        encodeFrame(
          body instanceof Refusal
            ? {
                seq: 0,
                type: "response",
                request_seq: message.seq,
                command: message.command,
                success: false,
                message: body.message,
              }
            : {
                seq: 0,
                type: "response",
                request_seq: message.seq,
                command: message.command,
                success: true,
                body,
              },
        ),
      );
    }
  });
  const adapter: AdapterProcess = {
    connection: new DapConnection(toClient, fromClient),
    child: undefined,
    socket: undefined,
    exited: new Promise(() => undefined),
    stderrTail: () => "",
    reaps: false,
    adapterPid: () => undefined,
  };
  const core = new SessionCore({
    ...options,
    root: "/",
    adapter,
    breakpoints: new BreakpointStore(),
    resumeWaitMs: 1000,
    terminateDebuggee: true,
  });
  return { core, asked };
}

/**
 * A stopped lldb session whose adapter gives every frame's scopes references of their own, as
 * lldb-dap does from llvm PR #124232 ("Stop using replicated variable ids"); lldb-dap 19, the one
 * installed here, shares them (the stop-ids integration test covers that), so this one is played
 * from the PR. Frames 1 and 2; the Locals of frame f are reference 10·f and hold `local_f`.
 */
function perFrameReferences() {
  const { core, asked } = playedSession(
    { adapterId: "lldb", description: "lldb: prog", evaluateContext: "watch" },
    (message) => {
      if (message.command === "stackTrace")
        return { stackFrames: [1, 2].map((id) => ({ id, name: `f${id}`, line: 1, column: 1 })) };
      if (message.command === "scopes") {
        const { frameId } = message.arguments as DebugProtocol.ScopesArguments;
        return { scopes: [{ name: "Locals", variablesReference: 10 * frameId, expensive: false }] };
      }
      const { variablesReference } = message.arguments as DebugProtocol.VariablesArguments;
      return { variables: [{ name: `local_${variablesReference / 10}`, value: "1", variablesReference: 0 }] };
    },
  );
  core.state = "stopped";
  core.lastStop = {
    reason: "breakpoint",
    description: undefined,
    text: undefined,
    threadId: 1,
    hitBreakpointIds: [],
  };
  return { core, asked };
}

describe("lldb scope references", () => {
  it("reads an earlier frame's scope without asking its scopes again when the adapter gives each frame its own", async () => {
    const { core, asked } = perFrameReferences();
    const [top, caller] = (await stack(core)).frames;
    const topLocals = (await scopes(core, top!.id))[0]!.variablesReference;
    const callerLocals = (await scopes(core, caller!.id))[0]!.variablesReference;
    asked.length = 0;
    expect((await variables(core, topLocals)).variables.map((v) => v.name)).toEqual(["local_1"]);
    expect((await variables(core, callerLocals)).variables.map((v) => v.name)).toEqual(["local_2"]);
    // No frame took another's references over: nothing to bind again.
    expect(asked).toEqual(["variables", "variables"]);
  });
});

/**
 * A stopped debugpy session on thread 1 whose adapter lists one frame per thread (id 100 +
 * thread) and evaluates in the frame asked: the answer names the frame. Played, not real: the
 * order of lldb-dap's per-thread stopped events (the focus thread's after another's) cannot be
 * brought about on demand with the real adapter; the debugpy integration test counts the rest.
 */
function evaluatingSession() {
  const { core, asked } = playedSession(
    { adapterId: "debugpy", description: "debugpy: app.py", evaluateContext: "repl" },
    (message) => {
      if (message.command === "stackTrace") {
        const { threadId } = message.arguments as DebugProtocol.StackTraceArguments;
        return { stackFrames: [{ id: 100 + threadId, name: `t${threadId}`, line: 1, column: 1 }] };
      }
      const { frameId } = message.arguments as DebugProtocol.EvaluateArguments;
      return { result: `in frame ${frameId}`, variablesReference: 0 };
    },
  );
  const stopAt = (threadId: number): StopInfo => ({
    reason: "breakpoint",
    description: undefined,
    text: undefined,
    threadId,
    hitBreakpointIds: [],
  });
  core.state = "stopped";
  core.lastStop = stopAt(1);
  return { core, asked, stopAt };
}

describe("evaluate without a frame", () => {
  it("lists the stopped thread's stack again only when the stop changed", async () => {
    const { core, asked, stopAt } = evaluatingSession();
    expect((await evaluate(core, "x"))?.result).toBe("in frame 101");
    expect((await evaluate(core, "x"))?.result).toBe("in frame 101");
    expect(asked).toEqual(["stackTrace", "evaluate", "evaluate"]);

    // Another thread's page listed: not where the stop is.
    asked.length = 0;
    await stack(core, 2);
    expect((await evaluate(core, "x"))?.result).toBe("in frame 101");
    expect(asked).toEqual(["stackTrace", "evaluate"]);

    // Another thread takes the stop over (lldb-dap's focus thread reporting after another).
    asked.length = 0;
    core.lastStop = stopAt(2);
    expect((await evaluate(core, "x"))?.result).toBe("in frame 102");
    expect((await evaluate(core, "x"))?.result).toBe("in frame 102");
    expect(asked).toEqual(["stackTrace", "evaluate", "evaluate"]);

    // A resume the adapter refused gives the stop back with its stack; a new stop drops it.
    asked.length = 0;
    const kept = core.snapshotStop();
    core.invalidate();
    core.restoreStop(kept);
    expect((await evaluate(core, "x"))?.result).toBe("in frame 102");
    expect(asked).toEqual(["evaluate"]);
    asked.length = 0;
    core.invalidate();
    expect((await evaluate(core, "x"))?.result).toBe("in frame 102");
    expect(asked).toEqual(["stackTrace", "evaluate"]);
  });
});

/**
 * A stopped session whose adapter refuses every `evaluate` with `message`. Played: a refusal of
 * another shape than a failed expression does not come from the real adapters on demand while
 * stopped in a frame of the stop (the tool sends evaluate only then); their failed expressions
 * are covered by the evaluate-failures integration test.
 */
function refusingSession(adapterId: AdapterId, message: string) {
  const { core } = playedSession(
    { adapterId, description: `${adapterId}: prog`, evaluateContext: "repl" },
    (request) =>
      request.command === "stackTrace"
        ? { stackFrames: [{ id: 7, name: "work", line: 3, column: 1, source: { path: "/app.py" } }] }
        : new Refusal(message),
  );
  core.state = "stopped";
  core.lastStop = {
    reason: "breakpoint",
    description: undefined,
    text: undefined,
    threadId: 1,
    hitBreakpointIds: [],
  };
  return core;
}

/** The error an evaluate was refused with (an answer fails the test). */
async function refusal(answer: Promise<unknown>): Promise<DebugError> {
  return answer.then(
    (body) => {
      throw new Error(`answered: ${JSON.stringify(body)}`);
    },
    (error: unknown) => error as DebugError,
  );
}

describe("evaluate refused", () => {
  it("is the expression's failure only in the shape the adapter gives one; any other stays the adapter's refusal", async () => {
    const failed = await refusal(
      evaluate(
        refusingSession(
          "debugpy",
          "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nNameError: name 'y' is not defined",
        ),
        "y",
      ),
    );
    expect(failed.code).toBe("DEBUG_EVALUATE_FAILED");
    expect(failed.message.split("\n")[0]).toBe(
      `the expression "y" failed in work (app.py:3): NameError: name 'y' is not defined`,
    );

    for (const [adapterId, message] of [
      ["debugpy", "Unable to find thread to evaluate"],
      ["lldb", "invalid frame"],
      ["delve", "unknown goroutine 9"],
      ["dart", "Expression evaluation failed: x"],
    ] as const) {
      const refused = await refusal(evaluate(refusingSession(adapterId, message), "y"));
      expect(refused.code, adapterId).toBe("DEBUG_ADAPTER_ERROR");
      expect(refused.message).toBe(`the adapter refused evaluate: ${message}`);
    }
  });
});
