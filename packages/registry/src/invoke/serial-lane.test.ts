import { describe, expect, it } from "vitest";
import { trackedRuns } from "../testing/tracked-runs.js";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import type { Run } from "../run/run.js";
import { defineTool } from "../tool/define-tool.js";
import { resultText } from "../result/tool-result.js";
import { SerialLane } from "./serial-lane.js";

const trackedRun = trackedRuns();
const newRun = (conversationId = "c1"): Run => trackedRun({ conversationId });

/** A tool whose calls finish only when the test releases them, recording overlap. */
function gatedTool(name: string, parallelSafe: boolean) {
  const log: string[] = [];
  const releases = new Map<string, () => void>();
  let running = 0;
  let maxRunning = 0;
  const started = new Map<string, Promise<void>>();
  const startedResolvers = new Map<string, () => void>();
  const whenStarted = (id: string) => {
    let promise = started.get(id);
    if (!promise) {
      promise = new Promise<void>((resolve) => startedResolvers.set(id, resolve));
      started.set(id, promise);
    }
    return promise;
  };
  const tool = defineTool({
    name,
    tier: "read",
    description: "Waits until released.",
    parallelSafe,
    input: z.object({ id: z.string() }),
    async execute(input) {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${input.id}`);
      void whenStarted(input.id);
      startedResolvers.get(input.id)?.();
      await new Promise<void>((resolve) => releases.set(input.id, resolve));
      log.push(`end ${input.id}`);
      running--;
      return input.id;
    },
  });
  return {
    tool,
    log,
    whenStarted,
    release: (id: string) => releases.get(id)?.(),
    maxRunning: () => maxRunning,
  };
}

describe("serial lanes", () => {
  it("runs a tool that is not parallel-safe one call at a time, in arrival order", async () => {
    const gated = gatedTool("stateful", false);
    const registry = createRegistry({ tools: [gated.tool] });
    const run = newRun();
    const calls = ["a", "b", "c"].map((id) => registry.invoke(run, { tool: "stateful", args: { id } }));
    await gated.whenStarted("a");
    gated.release("a");
    await gated.whenStarted("b");
    gated.release("b");
    await gated.whenStarted("c");
    gated.release("c");
    const results = await Promise.all(calls);
    expect(results.map(resultText)).toEqual(["a", "b", "c"]);
    expect(gated.log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(gated.maxRunning()).toBe(1);
  });

  it("lets parallel-safe calls overlap", async () => {
    const gated = gatedTool("stateless", true);
    const registry = createRegistry({ tools: [gated.tool] });
    const run = newRun();
    const calls = ["a", "b"].map((id) => registry.invoke(run, { tool: "stateless", args: { id } }));
    await Promise.all([gated.whenStarted("a"), gated.whenStarted("b")]);
    expect(gated.maxRunning()).toBe(2);
    gated.release("a");
    gated.release("b");
    await Promise.all(calls);
  });

  it("keeps separate lanes per conversation", async () => {
    const gated = gatedTool("stateful", false);
    const registry = createRegistry({ tools: [gated.tool] });
    const runA = newRun("one");
    const runB = newRun("two");
    const calls = [
      registry.invoke(runA, { tool: "stateful", args: { id: "a" } }),
      registry.invoke(runB, { tool: "stateful", args: { id: "b" } }),
    ];
    await Promise.all([gated.whenStarted("a"), gated.whenStarted("b")]);
    expect(gated.maxRunning()).toBe(2);
    gated.release("a");
    gated.release("b");
    await Promise.all(calls);
  });

  it("drops a cancelled waiter and stays usable", async () => {
    const gated = gatedTool("stateful", false);
    const registry = createRegistry({ tools: [gated.tool] });
    const run = newRun();
    const first = registry.invoke(run, { tool: "stateful", args: { id: "a" } });
    await gated.whenStarted("a");
    const controller = new AbortController();
    const cancelled = registry.invoke(run, {
      tool: "stateful",
      args: { id: "b" },
      signal: controller.signal,
    });
    const third = registry.invoke(run, { tool: "stateful", args: { id: "c" } });
    controller.abort();
    const cancelledResult = await cancelled;
    expect(cancelledResult.error?.code).toBe("CANCELLED");
    // It did wait behind "a": the answer says so.
    expect(resultText(cancelledResult)).toContain("while it waited for the previous call");
    gated.release("a");
    await gated.whenStarted("c");
    gated.release("c");
    expect(resultText(await first)).toBe("a");
    expect(resultText(await third)).toBe("c");
    expect(gated.log).toEqual(["start a", "end a", "start c", "end c"]);
  });

  it("keeps arrival order when the approval cards are answered in another order, and a declined call gives its place up", async () => {
    const log: string[] = [];
    const tool = defineTool({
      name: "append",
      tier: "exec",
      parallelSafe: false,
      description: "Appends its id to a log.",
      input: z.object({ id: z.string() }),
      execute(input) {
        log.push(input.id);
        return input.id;
      },
    });
    const answers = new Map<string, (allow: boolean) => void>();
    let allShown!: () => void;
    const cardsShown = new Promise<void>((resolve) => {
      allShown = resolve;
    });
    const approver = {
      attached: () => true,
      request: (request: { input: Readonly<Record<string, unknown>> }) =>
        new Promise<{ allow: true } | { allow: false; reason: string }>((resolve) => {
          answers.set(String(request.input.id), (allow) =>
            resolve(allow ? { allow: true } : { allow: false, reason: "no" }),
          );
          if (answers.size === 3) allShown();
        }),
    };
    const registry = createRegistry({ tools: [tool], approver });
    const run = newRun();
    const calls = ["a", "b", "c"].map((id) => registry.invoke(run, { tool: "append", args: { id } }));
    // Every card is shown at once: the operator answers them as they like.
    await cardsShown;
    answers.get("c")!(true);
    answers.get("b")!(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // c is allowed but came after a, whose card is still open: it waits for a's turn.
    expect(log).toEqual([]);
    answers.get("a")!(true);
    const results = await Promise.all(calls);
    expect(log).toEqual(["a", "c"]);
    expect(results.map((result) => result.isError)).toEqual([false, true, false]);
  });

  it("lets another caller's call run while a caller's earlier call waits on its card", async () => {
    const log: string[] = [];
    const tool = defineTool({
      name: "append",
      tier: "exec",
      parallelSafe: false,
      description: "Appends its id to a log.",
      input: z.object({ id: z.string() }),
      execute(input) {
        log.push(input.id);
        return input.id;
      },
    });
    const answers = new Map<string, () => void>();
    const approver = {
      attached: () => true,
      request: (request: { input: Readonly<Record<string, unknown>>; surface: string }) =>
        request.surface === "worker"
          ? new Promise<{ allow: true }>((resolve) => {
              answers.set(String(request.input.id), () => resolve({ allow: true }));
            })
          : Promise.resolve({ allow: true as const }),
    };
    const registry = createRegistry({ tools: [tool], approver, approval: "auto" });
    const run = newRun();
    // The worker's card stays open; the main agent's call (no card under auto) runs meanwhile.
    const worker = registry.invoke(run, {
      tool: "append",
      args: { id: "worker" },
      surface: "worker",
      caller: 'worker w1 "fix"',
    });
    await expect.poll(() => answers.size).toBe(1);
    expect(resultText(await registry.invoke(run, { tool: "append", args: { id: "main" } }))).toBe("main");
    expect(log).toEqual(["main"]);
    answers.get("worker")!();
    expect(resultText(await worker)).toBe("worker");
    expect(log).toEqual(["main", "worker"]);
  });

  it("refuses to wait on an already aborted signal", async () => {
    const lane = new SerialLane();
    const controller = new AbortController();
    controller.abort();
    await expect(lane.acquire(controller.signal)).rejects.toMatchObject({ code: "CANCELLED" });
    expect(lane.size).toBe(0);
  });

  it("cancels a call with nothing ahead of it in its lane as any call, not as one that waited", async () => {
    const gated = gatedTool("stateful", false);
    const registry = createRegistry({ tools: [gated.tool] });
    const run = newRun();
    const controller = new AbortController();
    // Aborted in the tick the call arrives: it was entering a free lane.
    const cancelled = registry.invoke(run, {
      tool: "stateful",
      args: { id: "a" },
      signal: controller.signal,
    });
    controller.abort();
    const result = await cancelled;
    expect(result.error?.code).toBe("CANCELLED");
    expect(resultText(result)).toBe("stateful was cancelled");
    expect(gated.log).toEqual([]);
    // The lane is free for the next call.
    const next = registry.invoke(run, { tool: "stateful", args: { id: "b" } });
    await gated.whenStarted("b");
    gated.release("b");
    expect(resultText(await next)).toBe("b");
  });
});
