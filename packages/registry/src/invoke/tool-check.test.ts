import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolsError } from "../errors/tools-error.js";
import type { CallEvent } from "../events/call-events.js";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { resourceKey } from "../run/resource-key.js";
import { defineTool } from "../tool/define-tool.js";
import type { ToolCheckContext } from "../tool/tool-context.js";
import { trackedRuns } from "../testing/tracked-runs.js";
import type { ApprovalDecision, ApprovalRequest, Approver } from "./approval.js";

const newRun = trackedRuns();

/** An approver whose cards stay open until the test answers them. */
class HeldApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  private readonly answers: ((decision: ApprovalDecision) => void)[] = [];
  private readonly opened: (() => void)[] = [];
  attached(): boolean {
    return true;
  }
  request(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    for (const resolve of this.opened.splice(0)) resolve();
    return new Promise((resolve) => this.answers.push(resolve));
  }
  /** Settles once `count` cards have been opened in all. */
  async cards(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.opened.push(resolve));
  }
  answer(index: number, decision: ApprovalDecision): void {
    this.answers[index]?.(decision);
  }
}

/** The "registry of things": an exec tool whose check refuses names the run does not have. */
function thingTool(known: Set<string>, options: { parallelSafe?: boolean } = {}) {
  const executed: string[] = [];
  const checked: { name: string; context: ToolCheckContext }[] = [];
  const tool = defineTool({
    name: "poke_thing",
    tier: "exec",
    description: "Pokes a thing by name.",
    parallelSafe: options.parallelSafe ?? true,
    input: z.object({ name: z.string(), times: z.number().int().default(1) }),
    check(input, context) {
      checked.push({ name: input.name, context });
      if (!known.has(input.name)) {
        throw new ToolsError({
          code: "UNKNOWN_THING",
          message: `no thing '${input.name}'; known things: ${[...known].join(", ")}`,
        });
      }
    },
    execute(input) {
      executed.push(input.name);
      return `poked ${input.name} ${input.times} time(s)`;
    },
  });
  return { tool, executed, checked };
}

describe("a tool's own check (defineTool check)", () => {
  it("refuses a call that cannot succeed with the tool's error, without opening a card", async () => {
    const { tool, executed } = thingTool(new Set(["a"]));
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: [tool], approver });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));

    const result = await registry.invoke(newRun(), { tool: "poke_thing", args: { name: "b" } });

    expect(result.error).toEqual({ code: "UNKNOWN_THING", message: "no thing 'b'; known things: a" });
    expect(approver.requests).toHaveLength(0);
    expect(executed).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["call-start", "call-end"]);
    expect(events[1]).toMatchObject({ type: "call-end", isError: true, code: "UNKNOWN_THING" });
  });

  it("opens the card when the check passes, with the validated arguments and the call's context", async () => {
    const { tool, executed, checked } = thingTool(new Set(["a"]));
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: [tool], approver });
    const events: string[] = [];
    registry.on((event) => events.push(event.type));

    const call = registry.invoke(newRun(), { tool: "poke_thing", args: { name: "a" }, caller: "worker w1" });
    await approver.cards(1);
    expect(executed).toEqual([]);
    approver.answer(0, { allow: true });
    const result = await call;

    expect(resultText(result)).toBe("poked a 1 time(s)");
    expect(executed).toEqual(["a"]);
    expect(checked[0]?.context).toMatchObject({ caller: "worker w1", origin: "model", depth: 0 });
    expect(checked[0]?.context.surface.name).toBe("main");
    // Checked as the call arrived, and again as it starts after its card.
    expect(checked.map((entry) => entry.name)).toEqual(["a", "a"]);
    expect(events).toEqual(["call-start", "call-approval", "call-approval", "call-end"]);
  });

  it("refuses a call whose state changed while its card was open, when it starts", async () => {
    const known = new Set(["a"]);
    const { tool, executed } = thingTool(known);
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: [tool], approver });

    const call = registry.invoke(newRun(), { tool: "poke_thing", args: { name: "a" } });
    await approver.cards(1);
    known.delete("a");
    approver.answer(0, { allow: true });
    const result = await call;

    expect(result.error?.code).toBe("UNKNOWN_THING");
    expect(executed).toEqual([]);
  });

  it("gives a refused serial call's lane turn up: the caller's next call runs, not held by another caller's card", async () => {
    const { tool, executed } = thingTool(new Set(["a", "c"]), { parallelSafe: false });
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: [tool], approver });
    const run = newRun();

    const first = registry.invoke(run, { tool: "poke_thing", args: { name: "a" }, caller: "worker w1" });
    await approver.cards(1);
    // Refused at once although another caller's call of the tool still waits on its card.
    const refused = await registry.invoke(run, { tool: "poke_thing", args: { name: "b" } });
    expect(refused.error?.code).toBe("UNKNOWN_THING");
    expect(approver.requests.map((request) => request.input)).toEqual([{ name: "a", times: 1 }]);

    const third = registry.invoke(run, { tool: "poke_thing", args: { name: "c" } });
    await approver.cards(2);
    approver.answer(1, { allow: true });
    expect(resultText(await third)).toBe("poked c 1 time(s)");
    approver.answer(0, { allow: true });
    expect(resultText(await first)).toBe("poked a 1 time(s)");
    expect(executed).toEqual(["c", "a"]);
  });

  it("checks a caller's serial call after the caller's earlier call of the tool has run, which may make it succeed", async () => {
    const known = new Set<string>();
    let releaseAdd!: () => void;
    const checked: string[] = [];
    const tool = defineTool({
      name: "things",
      tier: "read",
      description: "Adds a thing, or uses one.",
      parallelSafe: false,
      input: z.object({ action: z.enum(["add", "use"]), name: z.string() }),
      check(input) {
        checked.push(`${input.action} ${input.name}`);
        if (input.action === "use" && !known.has(input.name))
          throw new ToolsError({ code: "UNKNOWN_THING", message: `no '${input.name}'` });
      },
      async execute(input) {
        if (input.action === "use") return `used ${input.name}`;
        await new Promise<void>((resolve) => (releaseAdd = resolve));
        known.add(input.name);
        return `added ${input.name}`;
      },
    });
    const registry = createRegistry({ tools: [tool] });
    const run = newRun();

    const add = registry.invoke(run, { tool: "things", args: { action: "add", name: "b" } });
    await expect.poll(() => checked).toEqual(["add b"]);
    // The same caller's next call runs after the add: it is checked then, not against the state before.
    const use = registry.invoke(run, { tool: "things", args: { action: "use", name: "b" } });
    await expect.poll(() => typeof releaseAdd).toBe("function");
    releaseAdd();
    expect(resultText(await add)).toBe("added b");
    expect(resultText(await use)).toBe("used b");
    expect(checked).toEqual(["add b", "use b"]);
  });

  it("checks a serial call once when nothing was ahead of it in its lane", async () => {
    const { tool, checked } = thingTool(new Set(["a"]), { parallelSafe: false });
    const registry = createRegistry({ tools: [tool], approval: "auto" });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));

    const result = await registry.invoke(newRun(), { tool: "poke_thing", args: { name: "a" } });

    expect(resultText(result)).toBe("poked a 1 time(s)");
    expect(checked.map((entry) => entry.name)).toEqual(["a"]);
    expect(events.at(-1)).toMatchObject({ type: "call-end", waitedMs: 0 });
  });

  it("releases the lane when a call that waited for it is refused as it starts", async () => {
    const known = new Set(["a", "b"]);
    let releaseFirst!: () => void;
    const executed: string[] = [];
    const tool = defineTool({
      name: "serial_thing",
      tier: "read",
      description: "Holds its lane until released.",
      parallelSafe: false,
      input: z.object({ name: z.string() }),
      check(input) {
        if (!known.has(input.name))
          throw new ToolsError({ code: "UNKNOWN_THING", message: `no '${input.name}'` });
      },
      async execute(input) {
        executed.push(input.name);
        if (input.name === "a") await new Promise<void>((resolve) => (releaseFirst = resolve));
        return `done ${input.name}`;
      },
    });
    const registry = createRegistry({ tools: [tool] });
    const run = newRun();

    const first = registry.invoke(run, { tool: "serial_thing", args: { name: "a" } });
    await expect.poll(() => executed).toEqual(["a"]);
    const second = registry.invoke(run, { tool: "serial_thing", args: { name: "b" } });
    known.delete("b");
    releaseFirst();
    expect(resultText(await first)).toBe("done a");
    expect((await second).error?.code).toBe("UNKNOWN_THING");
    known.add("c");
    expect(resultText(await registry.invoke(run, { tool: "serial_thing", args: { name: "c" } }))).toBe(
      "done c",
    );
    expect(executed).toEqual(["a", "c"]);
  });

  it("fails a call whose check throws something else than a ToolsError with TOOL_FAILED naming the check", async () => {
    const approver = new HeldApprover();
    const tool = defineTool({
      name: "broken_check",
      tier: "write",
      description: "Its check is broken.",
      parallelSafe: true,
      input: z.object({}),
      check: () => Promise.reject(new TypeError("list is undefined")),
      execute: () => "ran",
    });
    const registry = createRegistry({ tools: [tool], approver });

    const result = await registry.invoke(newRun(), { tool: "broken_check", args: {} });

    expect(result.error).toEqual({
      code: "TOOL_FAILED",
      message: "broken_check was not called: its check of the call failed (list is undefined)",
    });
    expect(approver.requests).toHaveLength(0);
  });

  it.each([
    ["false", (): unknown => false],
    ["true", (): unknown => true],
    ["false, later", (): unknown => Promise.resolve(false)],
  ] as const)(
    "fails a call whose check answered %s (a check refuses by throwing) with TOOL_FAILED saying so, asking no one",
    async (_answered, check) => {
      const approver = new HeldApprover();
      const ran: string[] = [];
      const tool = defineTool({
        name: "boolean_check",
        tier: "write",
        description: "Its check answers a boolean.",
        parallelSafe: true,
        input: z.object({}),
        // As TypeScript lets one be written: a function answering a boolean where nothing is answered.
        check: check as () => void,
        execute: () => {
          ran.push("ran");
          return "ran";
        },
      });
      const registry = createRegistry({ tools: [tool], approver });

      const result = await registry.invoke(newRun(), { tool: "boolean_check", args: {} });

      expect(result.error).toEqual({
        code: "TOOL_FAILED",
        message:
          "boolean_check was not called: its check answered a boolean; a tool's check refuses a call by throwing a ToolsError and answers nothing otherwise",
      });
      expect(approver.requests).toHaveLength(0);
      expect(ran).toEqual([]);
    },
  );

  it("ends the wait for a check that does not settle when the call is cancelled, leaving the lane usable", async () => {
    const approver = new HeldApprover();
    let checking!: () => void;
    const checkStarted = new Promise<void>((resolve) => (checking = resolve));
    const tool = defineTool({
      name: "slow_check",
      tier: "exec",
      description: "Its check hangs on its first call.",
      parallelSafe: false,
      input: z.object({ hang: z.boolean() }),
      check(input) {
        if (!input.hang) return;
        checking();
        return new Promise<void>(() => undefined);
      },
      execute: () => "ran",
    });
    const registry = createRegistry({ tools: [tool], approver });
    const run = newRun();
    const controller = new AbortController();

    const hung = registry.invoke(run, {
      tool: "slow_check",
      args: { hang: true },
      signal: controller.signal,
    });
    await checkStarted;
    controller.abort();
    expect((await hung).error).toMatchObject({ code: "CANCELLED", message: "slow_check was cancelled" });
    expect(approver.requests).toHaveLength(0);

    const next = registry.invoke(run, { tool: "slow_check", args: { hang: false } });
    await approver.cards(1);
    approver.answer(0, { allow: true });
    expect(resultText(await next)).toBe("ran");
  });

  it("is refused by defineTool when it is not a function", () => {
    expect(() =>
      defineTool({
        name: "bad_check",
        tier: "read",
        description: "A check that is not a function.",
        parallelSafe: true,
        input: z.object({}),
        check: "yes" as never,
        execute: () => "ran",
      }),
    ).toThrow("check must be a function");
  });
});

/** Workers of a run, at most `limit` at once: what vibe_spawn and vibe_kill check. */
interface Pool {
  readonly names: Set<string>;
  readonly limit: number;
}
const poolKey = resourceKey<Pool>("test worker pool");

/**
 * spawn_worker and kill_worker over the pool, with vibe's checks; kill waits for `gate` when set;
 * spawn runs one call at a time when `serialSpawn`.
 */
function poolTools(gate?: Promise<void>, tier: "read" | "exec" = "exec", serialSpawn = false) {
  const spawn = defineTool({
    name: "spawn_worker",
    tier,
    description: "Starts a worker.",
    parallelSafe: !serialSpawn,
    requires: [poolKey],
    input: z.object({ name: z.string() }),
    check(_input, ctx) {
      const pool = ctx.run.require(poolKey);
      if (pool.names.size >= pool.limit)
        throw new ToolsError({
          code: "LIMIT_REACHED",
          message: `the limit of ${pool.limit} worker is reached; kill one first`,
        });
    },
    execute(input, ctx) {
      ctx.run.require(poolKey).names.add(input.name);
      return `started ${input.name}`;
    },
  });
  const kill = defineTool({
    name: "kill_worker",
    tier,
    description: "Ends a worker.",
    parallelSafe: true,
    requires: [poolKey],
    input: z.object({ name: z.string() }),
    check(input, ctx) {
      if (!ctx.run.require(poolKey).names.has(input.name))
        throw new ToolsError({ code: "UNKNOWN_WORKER", message: `no worker '${input.name}'` });
    },
    async execute(input, ctx) {
      await gate;
      ctx.run.require(poolKey).names.delete(input.name);
      return `killed ${input.name}`;
    },
  });
  return [spawn, kill];
}

describe("a check refused while the caller's earlier calls have not finished", () => {
  const poolRun = () => newRun({ resources: [[poolKey, { names: new Set(["w1"]), limit: 1 }]] });

  it("is checked again once they have: a batch's kill makes room for the spawn after it", async () => {
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: poolTools(), approver });
    const run = poolRun();
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));

    const kill = registry.invoke(run, { tool: "kill_worker", args: { name: "w1" } });
    const spawn = registry.invoke(run, { tool: "spawn_worker", args: { name: "w2" } });
    await approver.cards(1);
    // The spawn is not refused while the kill before it waits for its card.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(approver.requests.map((request) => request.tool)).toEqual(["kill_worker"]);
    expect(events.filter((event) => event.type === "call-end")).toEqual([]);
    approver.answer(0, { allow: true });
    expect(resultText(await kill)).toBe("killed w1");
    await approver.cards(2);
    expect(approver.requests[1]?.tool).toBe("spawn_worker");
    approver.answer(1, { allow: true });
    expect(resultText(await spawn)).toBe("started w2");
    expect([...run.require(poolKey).names]).toEqual(["w2"]);
  });

  it("waits for read-tier calls too (vibe's tools on a model backend): a kill still stopping its worker", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const registry = createRegistry({ tools: poolTools(gate, "read") });
    const run = poolRun();

    const kill = registry.invoke(run, { tool: "kill_worker", args: { name: "w1" } });
    const spawn = registry.invoke(run, { tool: "spawn_worker", args: { name: "w2" } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(resultText(await kill)).toBe("killed w1");
    expect(resultText(await spawn)).toBe("started w2");
  });

  it("is refused once they have when they did not change what it checks (the kill was denied)", async () => {
    const approver = new HeldApprover();
    const registry = createRegistry({ tools: poolTools(), approver });
    const run = poolRun();

    const kill = registry.invoke(run, { tool: "kill_worker", args: { name: "w1" } });
    const spawn = registry.invoke(run, { tool: "spawn_worker", args: { name: "w2" } });
    await approver.cards(1);
    approver.answer(0, { allow: false });
    expect((await kill).error?.code).toBe("APPROVAL_DENIED");
    expect((await spawn).error).toEqual({
      code: "LIMIT_REACHED",
      message: "the limit of 1 worker is reached; kill one first",
    });
    expect(approver.requests).toHaveLength(1);
  });

  it("is refused at once when the earlier calls share no resource with it, or come from another caller", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool({
      name: "slow_command",
      tier: "exec",
      description: "Runs until released.",
      parallelSafe: true,
      input: z.object({}),
      execute: async () => {
        await held;
        return "done";
      },
    });
    const registry = createRegistry({ tools: [...poolTools(held), slow], approval: "auto" });
    const run = poolRun();

    const command = registry.invoke(run, { tool: "slow_command", args: {} });
    const otherKill = registry.invoke(run, {
      tool: "kill_worker",
      args: { name: "w1" },
      caller: "worker-7",
    });
    const spawn = await registry.invoke(run, { tool: "spawn_worker", args: { name: "w2" } });

    expect(spawn.error?.code).toBe("LIMIT_REACHED");
    release();
    expect(resultText(await command)).toBe("done");
    expect(resultText(await otherKill)).toBe("killed w1");
  });

  it("never waits for the call it is made from", async () => {
    const registry = createRegistry({
      tools: [
        ...poolTools(),
        defineTool({
          name: "spawn_from_inside",
          tier: "exec",
          description: "Spawns a worker from inside its own call.",
          parallelSafe: true,
          requires: [poolKey],
          input: z.object({}),
          async execute(_input, ctx) {
            const nested = await ctx.invoke("spawn_worker", { name: "w2" });
            return nested.error?.code ?? resultText(nested);
          },
        }),
      ],
      approval: "auto",
    });

    const result = await registry.invoke(poolRun(), { tool: "spawn_from_inside", args: {} });

    expect(resultText(result)).toBe("LIMIT_REACHED");
  });

  it("a serial tool's call is refused at once: waiting, it would hold its turn in the lane a call nested in the earlier one needs", async () => {
    const registry = createRegistry({
      tools: [
        ...poolTools(undefined, "exec", true),
        defineTool({
          name: "restart_worker",
          tier: "exec",
          description: "Ends a worker and starts it again (spawn_worker, from inside its call).",
          parallelSafe: true,
          requires: [poolKey],
          input: z.object({ name: z.string() }),
          async execute(input, ctx) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            ctx.run.require(poolKey).names.delete(input.name);
            const nested = await ctx.invoke("spawn_worker", { name: input.name });
            return nested.error?.code ?? resultText(nested);
          },
        }),
      ],
      approval: "auto",
    });
    const run = poolRun();

    const restart = registry.invoke(run, { tool: "restart_worker", args: { name: "w1" } });
    const spawned = registry.invoke(run, { tool: "spawn_worker", args: { name: "w2" } });
    const outcome = await Promise.race([
      Promise.all([restart, spawned]).then((results) => results.map((r) => r.error?.code ?? resultText(r))),
      new Promise((resolve) => setTimeout(() => resolve("still waiting after 2 s"), 2000)),
    ]);

    expect(outcome).toEqual(["started w1", "LIMIT_REACHED"]);
  });

  it("ends the wait when the call is cancelled", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const registry = createRegistry({ tools: poolTools(gate), approval: "auto" });
    const run = poolRun();
    const controller = new AbortController();

    const kill = registry.invoke(run, { tool: "kill_worker", args: { name: "w1" } });
    const spawn = registry.invoke(run, {
      tool: "spawn_worker",
      args: { name: "w2" },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect((await spawn).error).toMatchObject({ code: "CANCELLED", message: "spawn_worker was cancelled" });
    release();
    expect(resultText(await kill)).toBe("killed w1");
  });
});
