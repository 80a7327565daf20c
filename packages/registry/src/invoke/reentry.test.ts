import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { defineTool } from "../tool/define-tool.js";
import { appendText, resultText, textResult, type ToolResult } from "../result/tool-result.js";
import type { CallEvent, CallStartEvent } from "../events/call-events.js";
import type { ApprovalRequest } from "./approval.js";
import type { ToolContext } from "../tool/tool-context.js";
import { echoTool, writeNoteTool } from "../testing/fixture-tools.js";
import { trackedRuns } from "../testing/tracked-runs.js";

const newRun = trackedRuns();

/** Stands in for eval: a cell that calls other tools through ctx.invoke, as tool("…") does. */
const cellTool = defineTool({
  name: "cell",
  tier: "exec",
  description: "Runs nested calls like a kernel cell.",
  parallelSafe: false,
  input: z.object({
    calls: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
  }),
  async execute(input, context) {
    const texts: string[] = [];
    for (const call of input.calls) {
      const result = await context.invoke(call.tool, call.args, { origin: "cell" });
      texts.push(`${call.tool}: ${result.isError ? `ERROR ${result.error?.code}` : resultText(result)}`);
    }
    return texts.join("\n");
  },
});

describe("re-entry from a cell", () => {
  it("hands receiveSecret to the nested tool only, so a secret goes out of band, never into a result", async () => {
    const seen: string[] = [];
    const secretAsker = defineTool({
      name: "secret_asker",
      tier: "read",
      parallelSafe: true,
      description: "Hands a secret to a caller that takes one.",
      input: z.object({}),
      execute(_input, context) {
        seen.push(context.receiveSecret === undefined ? "no receiver" : "receiver");
        context.receiveSecret?.("hunter2");
        return "answered (secret not shown)";
      },
    });
    const received: string[] = [];
    const asking = defineTool({
      name: "asking",
      tier: "read",
      parallelSafe: true,
      description: "Asks for a secret, then plainly.",
      input: z.object({}),
      async execute(_input, context) {
        seen.push(context.receiveSecret === undefined ? "outer: no receiver" : "outer: receiver");
        const secret = await context.invoke(
          "secret_asker",
          {},
          {
            origin: "cell",
            receiveSecret: (value) => received.push(value),
          },
        );
        const plain = await context.invoke("secret_asker", {}, { origin: "cell" });
        return `${resultText(secret)} / ${resultText(plain)}`;
      },
    });
    const registry = createRegistry({ tools: [secretAsker, asking] });
    const result = await registry.invoke(newRun(), { tool: "asking", args: {} });
    expect(resultText(result)).toBe("answered (secret not shown) / answered (secret not shown)");
    expect(resultText(result)).not.toContain("hunter2");
    expect(received).toEqual(["hunter2"]);
    expect(seen).toEqual(["outer: no receiver", "receiver", "no receiver"]);
  });

  it("goes through the same chain: validation, guardrails, approval and result wrappers", async () => {
    const asked: ApprovalRequest[] = [];
    const wrapped: string[] = [];
    const registry = createRegistry({
      tools: [echoTool, writeNoteTool, cellTool],
      approver: {
        attached: () => true,
        request: (request) => {
          asked.push(request);
          return Promise.resolve(request.tool === "write_note" ? { allow: false } : { allow: true });
        },
      },
      resultWrappers: [
        {
          name: "record",
          wrap: (result: ToolResult, call) => {
            wrapped.push(`${call.tool.name}/${call.origin}`);
            return result;
          },
        },
      ],
    });
    const result = await registry.invoke(newRun(), {
      tool: "cell",
      args: {
        calls: [
          { tool: "echo", args: { text: "hi" } },
          { tool: "echo", args: { text: 5 } },
          { tool: "write_note", args: { path: "../outside", text: "x" } },
          { tool: "write_note", args: { path: "inside.md", text: "x" } },
        ],
      },
    });
    expect(resultText(result)).toBe(
      [
        "echo: hi",
        "echo: ERROR INVALID_ARGUMENTS",
        "write_note: ERROR GUARDRAIL_REFUSED",
        "write_note: ERROR APPROVAL_DENIED",
      ].join("\n"),
    );
    expect(asked.map((request) => `${request.tool}/${request.origin}`)).toEqual([
      "cell/model",
      "write_note/cell",
    ]);
    // Refused calls never reach the tool, so only the calls that ran are wrapped.
    expect(wrapped).toEqual(["echo/cell", "cell/model"]);
  });

  it("keeps the caller's surface: a cell on plan mode cannot reach a write tool", async () => {
    const planCell = defineTool({ ...cellTool, name: "plan_cell", tier: "read" });
    const registry = createRegistry({ tools: [echoTool, writeNoteTool, planCell] });
    const result = await registry.invoke(newRun(), {
      tool: "plan_cell",
      surface: "plan",
      args: { calls: [{ tool: "write_note", args: { path: "a", text: "b" } }] },
    });
    expect(resultText(result)).toBe("write_note: ERROR TIER_EXCEEDED");
  });

  it("records origin, depth and parent on events", async () => {
    const registry = createRegistry({ tools: [echoTool, cellTool], approval: "auto" });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));
    await registry.invoke(newRun(), {
      tool: "cell",
      args: { calls: [{ tool: "echo", args: { text: "a" } }] },
    });
    const starts = events.filter((event): event is CallStartEvent => event.type === "call-start");
    expect(starts.map((event) => [event.tool, event.origin, event.depth])).toEqual([
      ["cell", "model", 0],
      ["echo", "cell", 1],
    ]);
    expect(starts[1]?.parentCallId).toBe(starts[0]?.callId);
  });

  it("refuses a call into a lane the caller holds instead of deadlocking", async () => {
    const registry = createRegistry({ tools: [cellTool], approval: "auto" });
    const result = await registry.invoke(newRun(), {
      tool: "cell",
      args: { calls: [{ tool: "cell", args: { calls: [] } }] },
    });
    expect(resultText(result)).toBe("cell: ERROR LANE_REENTRY");
  });

  it("refuses a call made through a context kept past its own call, and tells no progress of it", async () => {
    // A tool that leaves work running (a timer, a kernel thread) and calls tools from it later.
    let kept: ToolContext | undefined;
    const leaver = defineTool({
      name: "leaver",
      tier: "read",
      description: "Keeps its context.",
      parallelSafe: true,
      input: z.object({}),
      execute(_input, context) {
        kept = context;
        return "left";
      },
    });
    const approvals: ApprovalRequest[] = [];
    const registry = createRegistry({
      tools: [leaver, writeNoteTool],
      approver: {
        attached: () => true,
        request: (request) => (approvals.push(request), Promise.resolve({ allow: true })),
      },
    });
    const run = newRun();
    expect(resultText(await registry.invoke(run, { tool: "leaver", args: {} }))).toBe("left");
    const events: string[] = [];
    registry.on((event) => events.push(event.type));
    kept!.progress("still going");
    expect(events).toEqual([]);
    const late = await kept!.invoke("write_note", { path: "late.md", text: "late" });
    expect(late.error?.code).toBe("INVALID_REQUEST");
    expect(resultText(late)).toMatch(
      /^write_note was not called: the leaver call \(call_\d+\) it came from has ended; a tool calls other tools only while its own call runs$/,
    );
    expect(approvals).toEqual([]);
  });

  it("stops runaway recursion at the depth limit", async () => {
    const recurse = defineTool({
      name: "recurse",
      tier: "read",
      description: "Calls itself.",
      parallelSafe: true,
      input: z.object({}),
      async execute(_input, context) {
        const inner = await context.invoke("recurse", {});
        return inner.isError ? `depth ${context.depth}: ${inner.error?.code}` : resultText(inner);
      },
    });
    const registry = createRegistry({ tools: [recurse], maxDepth: 3 });
    const result = await registry.invoke(newRun(), { tool: "recurse", args: {} });
    expect(resultText(result)).toBe("depth 3: REENTRY_DEPTH");
  });
});

describe("result wrappers", () => {
  it("see the changed files and can append to the result", async () => {
    const registry = createRegistry({
      tools: [writeNoteTool],
      approval: "auto",
      resultWrappers: [
        {
          name: "diagnostics",
          wrap: (result, call) =>
            result.changedFiles.length > 0
              ? appendText(
                  result,
                  `checked ${result.changedFiles.map((file) => file.slice(call.run.workingDirectory.length + 1)).join(", ")}`,
                )
              : result,
        },
      ],
    });
    const result = await registry.invoke(newRun(), {
      tool: "write_note",
      args: { path: "src/a.ts", text: "x" },
    });
    expect(resultText(result)).toBe("wrote src/a.ts\n\nchecked src/a.ts");
  });

  it("see a changed file a tool named relatively by its absolute path, as the result gives it", async () => {
    const relativeWriter = defineTool({
      name: "relative_writer",
      tier: "read",
      description: "Names its changed file relatively.",
      parallelSafe: true,
      input: z.object({}),
      execute: () => textResult("wrote", { changedFiles: ["src/a.ts", "/elsewhere/b.ts"] }),
    });
    const seen: string[][] = [];
    const registry = createRegistry({
      tools: [relativeWriter],
      resultWrappers: [
        { name: "diagnostics", wrap: (result) => (seen.push([...result.changedFiles]), result) },
      ],
    });
    const run = newRun();
    const result = await registry.invoke(run, { tool: "relative_writer", args: {} });
    const expected = [join(run.workingDirectory, "src/a.ts"), "/elsewhere/b.ts"];
    expect(seen).toEqual([expected]);
    expect(result.changedFiles).toEqual(expected);
  });

  it("never fail the call when they throw: the error becomes a note", async () => {
    const registry = createRegistry({
      tools: [echoTool],
      resultWrappers: [
        {
          name: "broken-wrapper",
          wrap: () => {
            throw new Error("server gone");
          },
        },
      ],
    });
    const result = await registry.invoke(newRun(), { tool: "echo", args: { text: "a" } });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe("a\n\n(broken-wrapper could not run: server gone)");
  });

  it("are told as each tool starts, before execute, only for calls that reach it; each then wraps", async () => {
    const seen: string[] = [];
    const traced = defineTool({
      name: "traced",
      tier: "read",
      parallelSafe: true,
      description: "Records when it runs.",
      input: z.object({ fail: z.boolean() }),
      execute(input) {
        seen.push("execute");
        if (input.fail) throw new Error("tool failed");
        return { content: [{ type: "text" as const, text: "done" }], isError: false, changedFiles: [] };
      },
    });
    const registry = createRegistry({
      tools: [traced],
      resultWrappers: [
        {
          name: "throws-on-begin",
          begin: () => {
            seen.push("begin (throws)");
            throw new Error("broken hook");
          },
          wrap: (result) => result,
        },
        {
          name: "pairs",
          begin: (call) => seen.push(`begin ${call.tool.name}`),
          wrap: (result) => {
            seen.push(`wrap ${result.isError ? "error" : "ok"}`);
            return result;
          },
        },
      ],
    });
    const run = newRun();
    expect(resultText(await registry.invoke(run, { tool: "traced", args: { fail: false } }))).toBe("done");
    expect((await registry.invoke(run, { tool: "traced", args: { fail: true } })).isError).toBe(true);
    // Refused before the tool (bad arguments): neither hook runs.
    expect((await registry.invoke(run, { tool: "traced", args: { fail: "no" } })).error?.code).toBe(
      "INVALID_ARGUMENTS",
    );
    expect(seen).toEqual([
      "begin (throws)",
      "begin traced",
      "execute",
      "wrap ok",
      "begin (throws)",
      "begin traced",
      "execute",
      "wrap error",
    ]);
  });

  it("survive a tool or a wrapper returning nothing: the call fails or keeps its result, every wrap still runs", async () => {
    const wrapped: string[] = [];
    const silent = defineTool({
      name: "silent",
      tier: "read",
      parallelSafe: true,
      description: "Returns nothing (a JavaScript tool's bug).",
      input: z.object({}),
      execute: () => undefined as never,
    });
    const registry = createRegistry({
      tools: [silent, echoTool],
      resultWrappers: [
        {
          name: "forgets-to-return",
          wrap: (result) => {
            wrapped.push(`first ${result.isError ? "error" : "ok"}`);
            return undefined as never;
          },
        },
        {
          name: "last",
          wrap: (result) => {
            wrapped.push(`last ${result.isError ? "error" : "ok"}`);
            return result;
          },
        },
      ],
    });
    const run = newRun();
    const failed = await registry.invoke(run, { tool: "silent", args: {} });
    expect(failed.error?.code).toBe("TOOL_FAILED");
    expect(resultText(failed)).toBe(
      "the tool returned undefined instead of text or a result ({ content, isError, changedFiles }); this is a bug in the tool\n\n(forgets-to-return could not run: it returned no result)",
    );
    const echoed = await registry.invoke(run, { tool: "echo", args: { text: "a" } });
    expect(resultText(echoed)).toBe("a\n\n(forgets-to-return could not run: it returned no result)");
    expect(wrapped).toEqual(["first error", "last error", "first ok", "last ok"]);
  });
});
