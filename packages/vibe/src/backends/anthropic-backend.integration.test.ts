import { afterEach, describe, expect, it } from "vitest";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../__fixtures__/scripted-model-server.js";
import { createKit, nextEvent, probe, type Kit } from "../__fixtures__/test-kit.js";
import { createAnthropicBackend } from "./anthropic-backend.js";

const models = { fast: "loopback-haiku", good: "loopback-opus" };

describe("Anthropic backend through @anthropic-ai/sdk (loopback server, no real model API)", () => {
  let server: ScriptedModelServer | undefined;
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  it("plays a scripted conversation with tool_use and tool_result blocks", async () => {
    server = await startScriptedModelServer((request) => {
      if (request.index === 0) {
        return { text: "Reading it.", toolCalls: [{ name: "read_note", args: { file: "note.txt" } }] };
      }
      const messages = request.body["messages"] as { role: string; content: unknown }[];
      const last = messages[messages.length - 1]?.content as {
        type: string;
        content: string;
        is_error: boolean;
      }[];
      return { text: `It says: ${last[0]?.content ?? "?"} (error: ${String(last[0]?.is_error)})` };
    });
    kit = createKit({
      backend: createAnthropicBackend({
        baseURL: server.anthropicBaseUrl,
        apiKey: "loopback-key",
        models,
        maxRetries: 0,
      }),
    });
    await kit.call("vibe_spawn", { brief: "Read note.txt", label: "reader", tier: "good" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain('w1 "reader" (good) is done after');
    expect(waited.text).toContain("It says: the note says 42 (error: false)");

    const [first, second] = server.requests as [RecordedRequest, RecordedRequest];
    expect(first.api).toBe("anthropic");
    expect(first.body["model"]).toBe("loopback-opus");
    expect(typeof first.body["system"]).toBe("string");
    expect((first.body["tools"] as { name: string }[]).map((tool) => tool.name).sort()).toEqual([
      "hang",
      "read_note",
      "relay",
      "write_note",
    ]);
    const roles = (second.body["messages"] as { role: string }[]).map((message) => message.role);
    expect(roles).toEqual(["user", "assistant", "user"]);
  });

  it("a worker killed during a tool call stops it; the run ends with no socket open", async () => {
    server = await startScriptedModelServer(() => ({ toolCalls: [{ name: "hang", args: {} }] }));
    kit = createKit({
      backend: createAnthropicBackend({
        baseURL: server.anthropicBaseUrl,
        apiKey: "loopback-key",
        models,
        maxRetries: 0,
      }),
    });
    const entered = nextEvent(probe, "hang-entered");
    const aborted = nextEvent(probe, "hang-aborted");
    await kit.call("vibe_spawn", { brief: "hang", label: "stuck" });
    await entered;
    await kit.run.dispose();
    await aborted;
    expect(kit.list.get("w1").status).toBe("killed");
    expect(kit.list.get("w1").lastResult).toContain("the run has ended");
    expect(server.requests).toHaveLength(1);
    expect(await server.socketsClosed()).toBe(true);
  });
});
