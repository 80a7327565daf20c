import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import type { CallEvent } from "../events/call-events.js";
import { resultText } from "../result/tool-result.js";
import { trackedRuns } from "../testing/tracked-runs.js";
import { defineTool } from "../tool/define-tool.js";
import type { ApprovalDecision, ApprovalRequest } from "./approval.js";

const newRun = trackedRuns();

/** A write tool that answers with the call id its context has, and calls `echo` when asked to. */
const noteTool = defineTool({
  name: "note",
  tier: "write",
  description: "Writes a note.",
  parallelSafe: true,
  input: z.object({ text: z.string(), nested: z.boolean().optional() }),
  execute: async (input, ctx) => {
    if (input.nested === true) await ctx.invoke("echo", { text: input.text });
    return `${ctx.callId}: ${input.text}`;
  },
});
const echoTool = defineTool({
  name: "echo",
  tier: "read",
  description: "Echoes.",
  parallelSafe: true,
  input: z.object({ text: z.string() }),
  execute: (input) => input.text,
});

describe("a call's id given by the harness (the model's tool call id)", () => {
  it("is the id of its events, its approval card and its context, so a harness ties them to the tool call it shows", async () => {
    const asked: ApprovalRequest[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const registry = createRegistry({
      tools: [noteTool, echoTool],
      approver: {
        attached: () => true,
        request: async (request): Promise<ApprovalDecision> => {
          asked.push(request);
          if (asked.length === 2) release();
          await released;
          return { allow: true };
        },
      },
    });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));
    const run = newRun();
    const [first, second] = await Promise.all([
      registry.invoke(run, { tool: "note", args: { text: "a" }, callId: "toolu_01A" }),
      registry.invoke(run, { tool: "note", args: { text: "b", nested: true }, callId: "call_Xy9" }),
    ]);
    expect(resultText(first!)).toBe("toolu_01A: a");
    expect(resultText(second!)).toBe("call_Xy9: b");
    expect(asked.map((request) => request.callId).sort()).toEqual(["call_Xy9", "toolu_01A"]);
    const ofCall = (id: string) => events.filter((event) => event.callId === id).map((event) => event.type);
    expect(ofCall("toolu_01A")).toEqual(["call-start", "call-approval", "call-approval", "call-end"]);
    expect(ofCall("call_Xy9")).toEqual(["call-start", "call-approval", "call-approval", "call-end"]);
    // The nested call gets an id of its own, and names the harness's id as its parent.
    const nested = events.find((event) => event.type === "call-start" && event.tool === "echo");
    expect(nested).toMatchObject({ parentCallId: "call_Xy9" });
    expect(nested?.callId).not.toBe("call_Xy9");
  });

  it("is refused while another call that has not ended holds it, and is free again once that call ended", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const registry = createRegistry({
      tools: [noteTool],
      approver: { attached: () => true, request: async () => (await released, { allow: true }) },
    });
    const run = newRun();
    const held = registry.invoke(run, { tool: "note", args: { text: "a" }, callId: "toolu_1" });
    const twice = await registry.invoke(run, { tool: "note", args: { text: "b" }, callId: "toolu_1" });
    expect(twice.error?.code).toBe("INVALID_REQUEST");
    expect(resultText(twice)).toBe(
      "note was not called: callId 'toolu_1' is the id of a call that has not ended; give each call its own id (the model's tool call id)",
    );
    release();
    expect(resultText(await held)).toBe("toolu_1: a");
    const again = await registry.invoke(run, { tool: "note", args: { text: "c" }, callId: "toolu_1" });
    expect(resultText(again)).toBe("toolu_1: c");
  });

  it("must be a non-empty string", async () => {
    const registry = createRegistry({ tools: [echoTool] });
    const run = newRun();
    for (const callId of ["", 42, "x".repeat(257)]) {
      const result = await registry.invoke(run, {
        tool: "echo",
        args: { text: "a" },
        callId: callId as string,
      });
      expect(result.error?.code).toBe("INVALID_REQUEST");
      expect(resultText(result)).toMatch(
        /^echo was not called: callId must be a non-empty string of at most 256 characters/,
      );
    }
  });
});
