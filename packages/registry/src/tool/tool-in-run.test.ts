import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { trackedRuns } from "../testing/tracked-runs.js";
import { z } from "zod";
import type { ApprovalRequest, Approver } from "../invoke/approval.js";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { resourceKey } from "../run/resource-key.js";
import type { Run } from "../run/run.js";
import { defineTool } from "./define-tool.js";

const ungatedKey = resourceKey<{ ungated: boolean }>("backend");

/** Read tier unless the run's backend acts without the gate: then exec, said so, on its card. */
const startTool = defineTool({
  name: "start_worker",
  tier: "read",
  parallelSafe: true,
  description: 'Starts a worker whose calls are gated. Example: {"brief": "x"}',
  input: z.object({ brief: z.string() }),
  inRun: (run) =>
    run.get(ungatedKey)?.ungated
      ? {
          tier: "exec",
          description: 'Starts a worker that runs UNGATED. Example: {"brief": "x"}',
          summarize: (input) => `run ungated: ${input.brief}`,
        }
      : undefined,
  execute: () => "started",
});

class Recorder implements Approver {
  readonly requests: ApprovalRequest[] = [];
  attached(): boolean {
    return true;
  }
  request(request: ApprovalRequest) {
    this.requests.push(request);
    return Promise.resolve({ allow: true as const });
  }
}

const trackedRun = trackedRuns();
const newRun = (ungated: boolean): Run => trackedRun({ resources: [[ungatedKey, { ungated }]] });

describe("a tool's tier, description and card decided per run (inRun)", () => {
  it("keeps the definition where inRun changes nothing", async () => {
    const approver = new Recorder();
    const registry = createRegistry({ tools: [startTool], approver });
    const run = newRun(false);
    expect(registry.toolsFor(run, "plan").map((tool) => tool.tier)).toEqual(["read"]);
    const result = await registry.invoke(run, {
      tool: "start_worker",
      args: { brief: "b" },
      surface: "plan",
    });
    expect(resultText(result)).toBe("started");
    expect(approver.requests).toEqual([]);
  });

  it("is absent from and refused on a read-capped surface, and asks at exec with its own card", async () => {
    const approver = new Recorder();
    const registry = createRegistry({ tools: [startTool], approver });
    const run = newRun(true);
    expect(registry.toolsFor(run, "plan")).toEqual([]);
    const [main] = registry.toolsFor(run, "main");
    expect(main?.tier).toBe("exec");
    expect(registry.schema(run, "main", "json")[0]?.description).toContain("UNGATED");
    const refused = await registry.invoke(run, {
      tool: "start_worker",
      args: { brief: "b" },
      surface: "readonly",
    });
    expect(refused.error?.code).toBe("TIER_EXCEEDED");
    expect(resultText(refused)).toContain("start_worker is an exec tool");
    const allowed = await registry.invoke(run, { tool: "start_worker", args: { brief: "echo x" } });
    expect(resultText(allowed)).toBe("started");
    expect(approver.requests.map((request) => [request.tier, request.summary])).toEqual([
      ["exec", "run ungated: echo x"],
    ]);
  });
});

describe("the per-call signal", () => {
  it("is the call's own: listeners a tool adds go with the call, none pile up on the run's signal", async () => {
    const started: AbortSignal[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listening = defineTool({
      name: "listen",
      tier: "read",
      parallelSafe: true,
      description: "Waits with an abort listener. Example: {}",
      input: z.object({}),
      async execute(_input, ctx) {
        const onAbort = (): void => undefined;
        ctx.signal.addEventListener("abort", onAbort, { once: true });
        started.push(ctx.signal);
        await gate;
        return "ok";
      },
    });
    const registry = createRegistry({ tools: [listening] });
    const run = newRun(false);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const calls = Array.from({ length: 12 }, () => registry.invoke(run, { tool: "listen", args: {} }));
      await expect.poll(() => started.length).toBe(12);
      expect(new Set(started).size).toBe(12);
      expect(started).not.toContain(run.signal);
      // One tie per call in flight, none of the tool's own listeners.
      expect(getEventListeners(run.signal, "abort")).toHaveLength(12);
      release();
      await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
      // Untied as each call ended: nothing stays on the run's signal.
      expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("lets a call fan out to a dozen nested calls without a max-listeners warning, untied after", async () => {
    let parentSignal: AbortSignal | undefined;
    const leaf = defineTool({
      name: "leaf",
      tier: "read",
      parallelSafe: true,
      description: "Waits a turn. Example: {}",
      input: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return "leaf";
      },
    });
    const fan = defineTool({
      name: "fan",
      tier: "read",
      parallelSafe: true,
      description: "Calls leaf twelve times at once. Example: {}",
      input: z.object({}),
      async execute(_input, ctx) {
        parentSignal = ctx.signal;
        const results = await Promise.all(Array.from({ length: 12 }, () => ctx.invoke("leaf", {})));
        return results.map((result) => (result.isError ? "error" : "ok")).join(" ");
      },
    });
    const registry = createRegistry({ tools: [leaf, fan] });
    const run = newRun(false);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      expect(resultText(await registry.invoke(run, { tool: "fan", args: {} }))).toBe(
        Array(12).fill("ok").join(" "),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
      expect(getEventListeners(parentSignal!, "abort")).toHaveLength(0);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("aborts with the run's reason when the run ends during the call", async () => {
    let seen: AbortSignal | undefined;
    const waiting = defineTool({
      name: "wait",
      tier: "read",
      parallelSafe: true,
      description: "Waits for its signal. Example: {}",
      input: z.object({}),
      execute: (_input, ctx) =>
        new Promise<string>((resolve) => {
          seen = ctx.signal;
          ctx.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
        }),
    });
    const registry = createRegistry({ tools: [waiting] });
    const run = newRun(false);
    const call = registry.invoke(run, { tool: "wait", args: {} });
    await expect.poll(() => seen).toBeDefined();
    await run.dispose();
    await call;
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(run.signal.reason);
  });
});
