import { afterEach, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../__fixtures__/scripted-model-server.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createKit, nextEvent, reachStatus, RecordingApprover, type Kit } from "../__fixtures__/test-kit.js";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createAnthropicBackend } from "../backends/anthropic-backend.js";
import { createCommandBackend } from "../backends/command-backend.js";
import { createOpenAiBackend } from "../backends/openai-backend.js";

// A worker killed mid-run may have changed files already (its edits stay): the lead reads what it
// had done by then in vibe_kill's answer and in vibe_wait, instead of only "it was stopped".
describe("a worker killed mid-run says what it had done by then", () => {
  let kit: Kit | undefined;
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  it("a command worker: the end of its output until the kill", async () => {
    // A real `sh` standing in for an agent CLI: it edits, says so, then works on for good.
    const cli =
      "cat > /dev/null; echo 'edited src/api.ts (renamed getUser)'; echo 'now running the tests'; sleep 1000";
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }) });
    const { call, list } = kit;
    await call("vibe_spawn", { brief: "Rename getUser.", label: "rename" });
    await reachStatus(list, "w1", "running");
    await reachActivity(list, "w1", "now running the tests");

    const killed = await call("vibe_kill", { worker_id: "w1" });
    expect(killed.text).toContain('Killed w1 "rename"; it and everything it started have stopped.');
    expect(killed.text).toContain("edited src/api.ts (renamed getUser)\nnow running the tests");
    const waited = await call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain("killed by vibe_kill; it was stopped before it finished");
    expect(waited.text).toContain(
      "Its output until then:\nedited src/api.ts (renamed getUser)\nnow running the tests",
    );
  });

  it("a command worker killed before it printed anything says no more than before", async () => {
    kit = createKit({
      backend: createCommandBackend({ command: ["sh", "-c", "cat > /dev/null; sleep 1000"], graceMs: 200 }),
    });
    await kit.call("vibe_spawn", { brief: "Wait.", label: "quiet" });
    await reachStatus(kit.list, "w1", "running");
    await kit.call("vibe_kill", { worker_id: "w1" });
    expect(kit.list.get("w1").lastResult).toBe("killed by vibe_kill; it was stopped before it finished");
  });

  for (const api of ["openai", "anthropic"] as const) {
    it(`${api === "openai" ? "an OpenAI" : "an Anthropic"} model worker (loopback server, no model API): its turn and the tool calls it had made`, async () => {
      // Turn 1 writes a file; turn 2 never answers, until the kill.
      server = await startScriptedModelServer((request) =>
        request.index === 0
          ? { toolCalls: [{ name: "write_note", args: { file: "out.txt", text: "half done" } }] }
          : { hang: true },
      );
      const options = { apiKey: "loopback-key", models: { fast: "m-fast", good: "m-good" }, maxRetries: 0 };
      const backend =
        api === "openai"
          ? createOpenAiBackend({ ...options, baseURL: server.openAiBaseUrl })
          : createAnthropicBackend({ ...options, baseURL: server.anthropicBaseUrl });
      kit = createKit({ backend, approver: new RecordingApprover(true) });
      await kit.call("vibe_spawn", { brief: "Write out.txt, then more.", label: "writer" });
      while (server.requests.length < 2) await nextEvent(server.events, "request");

      const killed = await kit.call("vibe_kill", { worker_id: "w1" });
      expect(readFileSync(join(kit.dir, "out.txt"), "utf8")).toBe("half done"); // its edit stays
      expect(killed.text).toContain("It was in model turn 2, having made 1 tool call (write_note ×1).");
      const waited = await kit.call("vibe_wait", { worker_id: "w1" });
      expect(waited.text).toContain(
        "killed by vibe_kill; it was stopped before it finished. It was in model turn 2, having made 1 tool call (write_note ×1).",
      );
    });
  }
});

// "How far is it?": a wait that ends before the worker does shows what it has done so far (the end
// of a CLI's output, a model's turn and tool calls), not only its one progress line.
describe("a wait that times out shows what the running worker has done so far", () => {
  let kit: Kit | undefined;
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  it("a command worker: the end of its output so far", async () => {
    const cli =
      "cat > /dev/null; echo 'edited src/api.ts (renamed getUser)'; echo 'now running the tests'; sleep 1000";
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }) });
    await kit.call("vibe_spawn", { brief: "Rename getUser.", label: "rename" });
    await reachActivity(kit.list, "w1", "now running the tests");
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.1 });
    expect(waited.text).toContain('w1 "rename" (fast) is still running: only this wait ended');
    expect(waited.text).toContain(
      "Its output so far:\nedited src/api.ts (renamed getUser)\nnow running the tests",
    );
  });

  it("an OpenAI model worker (loopback server, no model API): its turn and the tool calls it has made", async () => {
    server = await startScriptedModelServer((request) =>
      request.index === 0
        ? { toolCalls: [{ name: "write_note", args: { file: "out.txt", text: "half done" } }] }
        : { hang: true },
    );
    const backend = createOpenAiBackend({
      baseURL: server.openAiBaseUrl,
      apiKey: "loopback-key",
      models: { fast: "m-fast", good: "m-good" },
      maxRetries: 0,
    });
    kit = createKit({ backend, approver: new RecordingApprover(true) });
    await kit.call("vibe_spawn", { brief: "Write out.txt, then more.", label: "writer" });
    while (server.requests.length < 2) await nextEvent(server.events, "request");
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.1 });
    expect(waited.text).toContain("It is in model turn 2, having made 1 tool call (write_note ×1).");
  });

  it("a worker whose backend says nothing of it: the wait's answer is as before", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "Think.", label: "thinker" });
    await backend.attempt(0);
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.1 });
    expect(waited.text).not.toContain("so far");
  });
});

/** Resolves once the worker's progress line is `line` (bounded); rejects with what it shows instead. */
function reachActivity(list: Kit["list"], id: string, line: string, ms = 10_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = (): boolean => {
      if (list.get(id).activity !== line) return false;
      clearTimeout(timer);
      off();
      resolve();
      return true;
    };
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${id} did not show '${line}' in ${ms}ms; it shows '${list.get(id).activity ?? ""}'`));
    }, ms);
    const off = list.on(() => void check());
    check();
  });
}
