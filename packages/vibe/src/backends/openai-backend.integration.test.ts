import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type Script,
  type ScriptedModelServer,
} from "../__fixtures__/scripted-model-server.js";
import {
  createKit,
  nextEvent,
  probe,
  reachStatus,
  RecordingApprover,
  type Kit,
} from "../__fixtures__/test-kit.js";
import type { Approver } from "@tools/registry";
import { createOpenAiBackend } from "./openai-backend.js";

const models = { fast: "loopback-fast", good: "loopback-good" };

function toolMessages(request: RecordedRequest): { role: string; content: string; tool_call_id: string }[] {
  const messages = request.body["messages"] as { role: string; content: string; tool_call_id: string }[];
  return messages.filter((message) => message.role === "tool");
}

describe("OpenAI-compatible backend through the openai SDK (loopback server, no real model API)", () => {
  let server: ScriptedModelServer | undefined;
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  async function setUp(
    script: Script,
    options: { approver?: Approver; concurrency?: number; maxTurns?: number } = {},
  ): Promise<Kit> {
    server = await startScriptedModelServer(script);
    const { maxTurns, ...listOptions } = options;
    kit = createKit({
      backend: createOpenAiBackend({
        baseURL: server.openAiBaseUrl,
        apiKey: "loopback-key",
        models,
        maxRetries: 0,
        ...(maxTurns === undefined ? {} : { maxTurns }),
      }),
      ...listOptions,
    });
    return kit;
  }

  it("plays a scripted conversation with a tool call: spawn returns at once, wait gets the answer", async () => {
    let release: () => void = () => undefined;
    const firstTurnHeld = new Promise<void>((resolve) => (release = resolve));
    const { call, list } = await setUp(async (request) => {
      if (request.index === 0) {
        await firstTurnHeld;
        return { toolCalls: [{ name: "read_note", args: { file: "note.txt" } }] };
      }
      return { text: `The note says: ${toolMessages(request)[0]?.content ?? "?"}` };
    });
    const spawned = await call("vibe_spawn", { brief: "What does note.txt say?", label: "reader" });
    // The model has not answered its first turn yet, and spawn has already returned.
    expect(spawned.text).toContain('Spawned w1 "reader" (fast); it is running');
    expect(list.get("w1").status).toBe("running");
    release();
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain("is done after");
    expect(waited.text).toContain("The note says: the note says 42");

    const [first, second] = server!.requests as [RecordedRequest, RecordedRequest];
    expect(first.body["model"]).toBe("loopback-fast");
    const tools = (first.body["tools"] as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(tools.sort()).toEqual(["hang", "read_note", "relay", "write_note"]); // no vibe_* for workers
    const messages = first.body["messages"] as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(messages[1]?.content).toBe("What does note.txt say?");
    expect(toolMessages(second)).toEqual([
      { role: "tool", tool_call_id: "call_0_0", content: "the note says 42" },
    ]);
    expect(server!.requests).toHaveLength(2);
  });

  it("a worker's write call passes the approval gate: a denying approver stops the write", async () => {
    const approver = new RecordingApprover(false);
    const { call, dir } = await setUp(
      (request) =>
        request.index === 0
          ? { toolCalls: [{ name: "write_note", args: { file: "out.txt", text: "written by a worker" } }] }
          : { text: `tool said: ${toolMessages(request)[0]?.content ?? "?"}` },
      { approver },
    );
    await call("vibe_spawn", { brief: "write out.txt", label: "writer" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(existsSync(join(dir, "out.txt"))).toBe(false);
    expect(approver.requests).toHaveLength(1);
    expect(approver.requests[0]).toMatchObject({
      tool: "write_note",
      surface: "worker",
      summary: "write out.txt",
      caller: 'worker w1 "writer"',
    });
    expect(waited.text).toContain(
      'tool said: error (APPROVAL_DENIED): the operator denied write_note (write tool, called by worker w1 "writer")',
    );
  });

  it("a worker's write call passes the approval gate: an allowing approver lets it write", async () => {
    const approver = new RecordingApprover(true);
    const { call, dir } = await setUp(
      (request) =>
        request.index === 0
          ? { toolCalls: [{ name: "write_note", args: { file: "out.txt", text: "written by a worker" } }] }
          : { text: "done writing" },
      { approver },
    );
    await call("vibe_spawn", { brief: "write out.txt", label: "writer", tier: "good" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain("done writing");
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("written by a worker");
    expect(approver.requests.map((request) => request.surface)).toEqual(["worker"]);
    expect(server!.requests[0]?.body["model"]).toBe("loopback-good");
  });

  it("a server error (500) fails the worker with the API's message", async () => {
    const { call, list } = await setUp(() => ({ status: 500, message: "loopback model exploded" }));
    await call("vibe_spawn", { brief: "anything", label: "unlucky" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(list.get("w1").status).toBe("failed");
    expect(waited.text).toContain('w1 "unlucky" (fast) failed after');
    expect(waited.text).toContain("the model request to loopback-fast failed");
    expect(waited.text).toContain("loopback model exploded");
  });

  it("vibe_kill during a tool call aborts the tool call and asks the model nothing more", async () => {
    const { call, list } = await setUp(() => ({ toolCalls: [{ name: "hang", args: {} }] }));
    const entered = nextEvent(probe, "hang-entered");
    const aborted = nextEvent(probe, "hang-aborted");
    await call("vibe_spawn", { brief: "wait forever", label: "stuck" });
    await entered;
    const killed = await call("vibe_kill", { worker_id: "w1" });
    expect(killed.text).toBe(
      'Killed w1 "stuck"; it and everything it started have stopped. It was in model turn 1, in a call of hang (cut short), having made no tool calls before it.',
    );
    await aborted;
    expect(list.get("w1").status).toBe("killed");
    expect(list.get("w1").lastResult).toContain("killed by vibe_kill");
    expect(server!.requests).toHaveLength(1);
  });

  it("vibe_send aborts the model request in flight and reruns with the longer brief", async () => {
    const { call } = await setUp((request) =>
      request.index === 0
        ? { hang: true }
        : { text: `rerun saw: ${JSON.stringify(request.body["messages"])}` },
    );
    const firstRequest = nextEvent(server!.events, "request");
    const clientGone = nextEvent(server!.events, "client-gone");
    await call("vibe_spawn", { brief: "draft the plan", label: "planner" });
    await firstRequest;
    const sent = await call("vibe_send", { worker_id: "w1", message: "keep it short" });
    expect(sent.text).toContain("its run in progress was cancelled and it starts over");
    expect(await clientGone).toEqual([0]);
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain(String.raw`draft the plan\n\nkeep it short`);
  });

  it("disposing the run with workers mid-request leaves no socket open", async () => {
    const { call, run, list } = await setUp(() => ({ hang: true }), { concurrency: 3 });
    const requests = [nextEvent(server!.events, "request")];
    await call("vibe_spawn", { brief: "one", label: "one" });
    await call("vibe_spawn", { brief: "two", label: "two" });
    await requests[0];
    await reachStatus(list, "w2", "running");
    while (server!.requests.length < 2) await nextEvent(server!.events, "request");
    expect(server!.openSockets()).toBeGreaterThan(0);
    const report = await run.dispose();
    expect(report.failed).toEqual([]);
    expect(list.list().map((worker) => worker.status)).toEqual(["killed", "killed"]);
    expect(await server!.socketsClosed()).toBe(true);
  });

  it("a model that never stops calling tools fails the worker at the turn limit", async () => {
    const { call } = await setUp(() => ({ toolCalls: [{ name: "read_note", args: { file: "note.txt" } }] }), {
      maxTurns: 2,
    });
    await call("vibe_spawn", { brief: "loop", label: "looper" });
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain("failed after");
    expect(waited.text).toContain("worker 'looper' stopped after 2 model turns without a final answer");
    expect(server!.requests).toHaveLength(2);
  });

  it("finished workers leave no socket open (connections close with each response)", async () => {
    const { call } = await setUp(() => ({ text: "quick answer" }));
    await call("vibe_spawn", { brief: "quick", label: "quick" });
    await call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(await server!.socketsClosed()).toBe(true);
  });
});
