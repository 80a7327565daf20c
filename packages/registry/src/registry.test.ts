import { describe, expect, it } from "vitest";
import { trackedRuns } from "./testing/tracked-runs.js";
import { z } from "zod";
import { createRegistry } from "./registry.js";
import type { Run } from "./run/run.js";
import { defineSurface } from "./surface/surface.js";
import { defineTool } from "./tool/define-tool.js";
import { resultText, type ToolResult } from "./result/tool-result.js";
import type { CallEvent } from "./events/call-events.js";
import { echoTool, fakeSupervisorKey, runProgramTool, writeNoteTool } from "./testing/fixture-tools.js";

const trackedRun = trackedRuns();
const newRun = (wired = true): Run =>
  trackedRun({ conversationId: "c1", resources: wired ? [[fakeSupervisorKey, { name: "fake" }]] : [] });

const all = [echoTool, writeNoteTool, runProgramTool];

describe("surfaces and registration conditions", () => {
  it("lists exactly the wired tools within each surface's cap", () => {
    const registry = createRegistry({ tools: all });
    const run = newRun();
    const names = (surface: string) => registry.toolsFor(run, surface).map((tool) => tool.name);
    expect(names("main")).toEqual(["echo", "write_note", "run_program"]);
    expect(names("worker")).toEqual(["echo", "write_note", "run_program"]);
    expect(names("plan")).toEqual(["echo"]);
    expect(names("readonly")).toEqual(["echo"]);
  });

  it("leaves out a tool whose resource is not wired, and says why when it is called anyway", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const run = newRun(false);
    expect(registry.toolsFor(run, "main").map((tool) => tool.name)).toEqual(["echo", "write_note"]);
    const result = await registry.invoke(run, { tool: "run_program", args: { program: "x" } });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("TOOL_NOT_WIRED");
    expect(resultText(result)).toBe(
      "run_program is not available in this run: no fake supervisor is wired for this run",
    );
  });

  it("honours a custom surface capped at write", async () => {
    const editor = defineSurface({ name: "editor", cap: "write", label: "the editor" });
    const registry = createRegistry({ tools: all, surfaces: [editor], approval: "auto" });
    const run = newRun();
    expect(registry.toolsFor(run, "editor").map((tool) => tool.name)).toEqual(["echo", "write_note"]);
    const result = await registry.invoke(run, {
      tool: "run_program",
      args: { program: "x" },
      surface: "editor",
    });
    expect(resultText(result)).toBe("run_program is an exec tool; the editor sees read and write tools only");
  });

  it("hides a surface's hidden tools from its schema and refuses them, also inside another tool's call", async () => {
    const relay = defineTool({
      name: "relay",
      tier: "read",
      description: "Calls another tool on the caller's surface.",
      parallelSafe: true,
      input: z.object({ tool: z.string() }),
      execute: async (input, context) => resultText(await context.invoke(input.tool, { text: "a" })),
    });
    const helper = defineSurface({ name: "helper", cap: "exec", label: "a helper", hides: ["echo"] });
    const registry = createRegistry({ tools: [...all, relay], surfaces: [helper], approval: "auto" });
    const run = newRun();
    expect(registry.toolsFor(run, helper).map((tool) => tool.name)).toEqual([
      "write_note",
      "run_program",
      "relay",
    ]);
    const direct = await registry.invoke(run, { tool: "echo", args: { text: "a" }, surface: helper });
    expect(direct.error?.code).toBe("NOT_ON_SURFACE");
    expect(resultText(direct)).toBe("echo is not available to a helper; use the tools its schema lists");
    const nested = await registry.invoke(run, { tool: "relay", args: { tool: "echo" }, surface: helper });
    expect(resultText(nested)).toBe("echo is not available to a helper; use the tools its schema lists");
    expect(resultText(await registry.invoke(run, { tool: "relay", args: { tool: "echo" } }))).toBe("a");
  });

  it("tells a tool who calls it when the harness named the caller, and nested calls inherit it", async () => {
    const seen: (string | undefined)[] = [];
    const whoAsks = defineTool({
      name: "who_asks",
      tier: "read",
      description: "Records its caller.",
      parallelSafe: true,
      input: z.object({ nested: z.boolean().optional() }),
      execute: async (input, context) => {
        seen.push(context.caller);
        if (input.nested) await context.invoke("who_asks", {});
        return "ok";
      },
    });
    const registry = createRegistry({ tools: [whoAsks] });
    const run = newRun();
    await registry.invoke(run, { tool: "who_asks", args: { nested: true }, caller: 'worker w2 "writer"' });
    await registry.invoke(run, { tool: "who_asks", args: {} });
    expect(seen).toEqual(['worker w2 "writer"', 'worker w2 "writer"', undefined]);
  });

  it("uses a tool's own availability rule", () => {
    const picky = defineTool({
      name: "picky",
      tier: "read",
      description: "Only in conversation c2.",
      parallelSafe: true,
      input: z.object({}),
      available: (run) => (run.conversationId === "c2" ? true : "only for conversation c2"),
      execute: () => "ok",
    });
    const registry = createRegistry({ tools: [picky] });
    expect(registry.toolsFor(newRun(), "main")).toEqual([]);
  });

  it("refuses a second tool with the same name", () => {
    expect(() => createRegistry({ tools: [echoTool, echoTool] })).toThrow(/already registered/);
  });

  it("refuses a surface of the harness's own named as a built-in one or given twice, so plan mode never gains write tools", () => {
    const loosePlan = defineSurface({ name: "plan", cap: "exec" });
    expect(() => createRegistry({ tools: all, surfaces: [loosePlan] })).toThrow(
      "surface 'plan' is built in (main, plan, readonly, worker); give yours another name",
    );
    const editor = defineSurface({ name: "editor", cap: "write" });
    expect(() => createRegistry({ surfaces: [editor, editor] })).toThrow(
      "a surface named 'editor' is given twice; give each surface its own name",
    );
    expect(() => createRegistry({ surfaces: [{ name: "editor" } as never] })).toThrow(
      "surfaces: an object of another kind is not a surface; make each one with defineSurface({ name, cap })",
    );
  });

  it("refuses a surface passed as a value that is not one, instead of reading its missing cap", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const run = newRun();
    const result = await registry.invoke(run, {
      tool: "write_note",
      args: { path: "a.md", text: "a" },
      surface: { name: "plan" } as never,
    });
    expect(result.error?.code).toBe("UNKNOWN_SURFACE");
    expect(resultText(result)).toBe(
      "the surface is an object of another kind, not a surface: pass a surface's name (main, plan, readonly, worker) or what defineSurface returned",
    );
    expect(() => registry.toolsFor(run, 3 as never)).toThrow("the surface is a number, not a surface");
  });

  it("checks a tool not made by defineTool as defineTool does, and refuses tools that are not a list or a negative maxDepth", () => {
    expect(() => createRegistry().register({ name: "raw" } as never)).toThrow(
      "tool 'raw' is badly defined: tier must be read, write or exec; description must be non-empty product text",
    );
    expect(() => createRegistry({ tools: "echo" as never })).toThrow(
      "tools: a string is not a list; pass tools: [tool, …]",
    );
    expect(() => createRegistry().register(null as never)).toThrow(
      "register: null is not a tool; make each tool with defineTool({ … })",
    );
    expect(() => createRegistry({ maxDepth: -1 })).toThrow(
      "maxDepth must be a whole number of 0 or more (0: no tool calls another), not -1",
    );
    // A plain definition that is whole is taken, with its registration condition.
    const plain = { ...echoTool, requires: undefined } as never;
    const registry = createRegistry({ tools: [plain] });
    expect(registry.toolsFor(newRun(), "main").map((tool) => tool.name)).toEqual(["echo"]);
  });

  it("rejects an unknown surface with the known ones", async () => {
    const registry = createRegistry({ tools: all });
    const result = await registry.invoke(newRun(), { tool: "echo", args: { text: "a" }, surface: "boss" });
    expect(result.error?.code).toBe("UNKNOWN_SURFACE");
    expect(resultText(result)).toContain("known surfaces: main, plan, readonly, worker");
  });
});

describe("invoke refusals", () => {
  it("refuses a write tool on plan mode even when the model names it", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const result = await registry.invoke(newRun(), {
      tool: "write_note",
      args: { path: "a.txt", text: "x" },
      surface: "plan",
    });
    expect(result.error?.code).toBe("TIER_EXCEEDED");
    expect(resultText(result)).toBe("write_note is a write tool; plan mode sees read tools only");
  });

  it("refuses an exec tool on a read-only subagent", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const result = await registry.invoke(newRun(), {
      tool: "run_program",
      args: { program: "x" },
      surface: "readonly",
    });
    expect(resultText(result)).toBe("run_program is an exec tool; a read-only subagent sees read tools only");
  });

  it("names an unknown tool, suggests the closest one, and lists only what the surface sees", async () => {
    const registry = createRegistry({ tools: all });
    const result = await registry.invoke(newRun(), { tool: "ecko", args: {}, surface: "plan" });
    expect(result.error?.code).toBe("UNKNOWN_TOOL");
    expect(resultText(result)).toBe("unknown tool 'ecko' (did you mean 'echo'?); tools for plan mode: echo");
  });

  it("says what was wrong, where, and what was expected", async () => {
    const registry = createRegistry({ tools: all });
    const result = await registry.invoke(newRun(), { tool: "echo", args: { txt: "a", times: 0 } });
    expect(result.error?.code).toBe("INVALID_ARGUMENTS");
    const text = resultText(result);
    expect(text).toContain("unknown argument 'txt' (did you mean 'text'?)");
    expect(text).toContain("- text: required, but missing");
    expect(text).toMatch(/- times: .*>=\s*1/);
    expect(text).toContain("Expected: echo(text: string, times?: integer)");
  });

  it("accepts null for an optional argument (OpenAI strict mode) and a JSON string of the object", async () => {
    const registry = createRegistry({ tools: all });
    const run = newRun();
    const withNull = await registry.invoke(run, { tool: "echo", args: { text: "ab", times: null } });
    expect(resultText(withNull)).toBe("ab");
    const asString = await registry.invoke(run, { tool: "echo", args: '{"text":"cd","times":2}' });
    expect(resultText(asString)).toBe("cdcd");
  });

  it("never throws on random or hostile arguments", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const run = newRun();
    const hostile: unknown[] = [
      null,
      42,
      "not json",
      [],
      [1, 2],
      { text: { toString: () => "x" } },
      JSON.parse('{"__proto__": {"polluted": true}, "text": "a"}'),
      { text: "a".repeat(100_000), times: 1e308 },
      Object.create(null),
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error("hostile proxy");
          },
        },
      ),
      { path: "../../etc/passwd", text: "x" },
      { program: Symbol("s") },
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = (): unknown => {
      const choices = [
        () => random(),
        () => "s",
        () => null,
        () => [pick()],
        () => ({ k: pick() }),
        () => true,
      ];
      return choices[Math.floor(random() * choices.length)]!();
    };
    for (let i = 0; i < 200; i++) hostile.push({ text: pick(), times: pick(), extra: pick() });
    for (const args of hostile) {
      for (const tool of ["echo", "write_note", "run_program", 123 as unknown as string]) {
        const result = await registry.invoke(run, { tool, args });
        expect(result).toHaveProperty("isError");
        if (result.isError) expect(result.error?.message.length).toBeGreaterThan(0);
      }
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("answers a request or run that is not one with an error result, not an exception", async () => {
    const registry = createRegistry({ tools: all, approval: "auto" });
    const run = newRun();
    const invoke = registry.invoke.bind(registry) as (run: unknown, request: unknown) => Promise<ToolResult>;
    for (const [badRun, request, message] of [
      [run, null, "invoke: the request is null, not an object: pass { tool, args }"],
      [run, "echo", "invoke: the request is a string, not an object: pass { tool, args }"],
      [run, [], "invoke: the request is an array, not an object: pass { tool, args }"],
      [
        null,
        { tool: "echo", args: { text: "a" } },
        "invoke: the run is null, not a Run: pass the one createRun returned",
      ],
      [
        {},
        { tool: "echo", args: { text: "a" } },
        "invoke: the run is an object of another kind, not a Run: pass the one createRun returned",
      ],
    ] as const) {
      const result = await invoke(badRun, request);
      expect(result.error?.code).toBe("INVALID_REQUEST");
      expect(resultText(result)).toBe(message);
    }
  });

  it("refuses every call once the run has ended", async () => {
    const registry = createRegistry({ tools: all });
    const run = newRun();
    await run.dispose();
    const result = await registry.invoke(run, { tool: "echo", args: { text: "a" } });
    expect(result.error?.code).toBe("RUN_DISPOSED");
  });

  it("turns a thrown error into an error result and keeps a ToolsError's code", async () => {
    const failing = defineTool({
      name: "failing",
      tier: "read",
      description: "Fails.",
      parallelSafe: true,
      input: z.object({ kind: z.enum(["plain", "typed"]) }),
      execute: async (input) => {
        const { ToolsError } = await import("./errors/tools-error.js");
        if (input.kind === "typed")
          throw new ToolsError({ code: "LSP_NO_SERVER", message: "no server for this root" });
        throw new Error("boom");
      },
    });
    const registry = createRegistry({ tools: [failing] });
    const run = newRun();
    const plain = await registry.invoke(run, { tool: "failing", args: { kind: "plain" } });
    expect(plain.error).toEqual({ code: "TOOL_FAILED", message: "boom" });
    const typed = await registry.invoke(run, { tool: "failing", args: { kind: "typed" } });
    expect(typed.error).toEqual({ code: "LSP_NO_SERVER", message: "no server for this root" });
  });
});

describe("events", () => {
  it("emits start and end with timing, origin and outcome", async () => {
    const registry = createRegistry({ tools: all });
    const events: CallEvent[] = [];
    registry.on((event) => events.push(event));
    await registry.invoke(newRun(), { tool: "echo", args: { text: "a" } });
    await registry.invoke(newRun(), { tool: "nope" });
    expect(events.map((event) => event.type)).toEqual(["call-start", "call-end", "call-start", "call-end"]);
    const [start, end, , failed] = events;
    expect(start).toMatchObject({ tool: "echo", surface: "main", origin: "model", depth: 0 });
    expect(end).toMatchObject({ tool: "echo", isError: false, code: undefined });
    expect(end?.type === "call-end" && end.durationMs).toBeGreaterThanOrEqual(0);
    expect(failed).toMatchObject({ type: "call-end", isError: true, code: "UNKNOWN_TOOL" });
  });
});
