// No model API can run here: a loopback server plays the model (the real openai and
// @anthropic-ai/sdk backends talk to it over HTTP), and an in-process backend stands in for any
// other backend a harness may bring. What their workers answer reaches the lead's model and the
// operator through vibe_wait and vibe_list, cleaned as a command worker's output is.
import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import {
  startScriptedModelServer,
  type Script,
  type ScriptedModelServer,
} from "../__fixtures__/scripted-model-server.js";
import { createKit, type Kit } from "../__fixtures__/test-kit.js";
import type { WorkerSnapshot } from "../list/worker.js";
import { createAnthropicBackend } from "./anthropic-backend.js";
import { createOpenAiBackend } from "./openai-backend.js";
import type { WorkerBackend } from "./worker-backend.js";

const models = { fast: "loopback-fast", good: "loopback-good" };

/**
 * An answer with colour codes, a terminal title, a bell, NUL, a C1 control (CSI), a right-to-left
 * override ("exe.tset" shown as "test.exe") and an isolate, over two lines ended by `\r\n`.
 */
const dirty =
  "\u001b[31mAll\u001b[0m done\u0007 \u202Eexe.tset\u202C\u0000\u009b ok\u001b]0;pwned\u0007\r\n\u2067second\u2069 line\tend";
const clean = "All done exe.tset ok\nsecond line\tend";

/** Escape, C0 and C1 controls but tab and newline, and the bidi controls that reorder text. */
// eslint-disable-next-line no-control-regex
const unclean = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202A-\u202E\u2066-\u2069]/;

describe("a worker's text reaches the lead and the operator cleaned, whatever its backend", () => {
  let server: ScriptedModelServer | undefined;
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  /** The list's kit on `backend`, recording every activity line and result it shows. */
  function setUp(backend: WorkerBackend): { kit: Kit; seen: string[] } {
    // Every progress line as an event (none coalesced): each one must be clean.
    kit = createKit({ backend, activityIntervalMs: 0 });
    const seen: string[] = [];
    kit.list.on((event) => {
      const worker: WorkerSnapshot = event.worker;
      if (worker.activity !== undefined) seen.push(worker.activity);
      if (worker.lastResult !== undefined) seen.push(worker.lastResult);
    });
    return { kit, seen };
  }

  async function serve(script: Script): Promise<ScriptedModelServer> {
    server = await startScriptedModelServer(script);
    return server;
  }

  for (const api of ["openai", "anthropic"] as const) {
    it(`${api}: the answer and the progress lines (a tool name the model made up with escapes in it) are plain text`, async () => {
      const loopback = await serve((request) =>
        request.index === 0
          ? { toolCalls: [{ name: "read\u001b[2J\u202Enote", args: { file: "note.txt" } }] }
          : { text: dirty },
      );
      const options = { apiKey: "loopback-key", models, maxRetries: 0 };
      const { kit, seen } = setUp(
        api === "openai"
          ? createOpenAiBackend({ ...options, baseURL: loopback.openAiBaseUrl })
          : createAnthropicBackend({ ...options, baseURL: loopback.anthropicBaseUrl }),
      );
      await kit.call("vibe_spawn", { brief: "Say what the note says.", label: "reader" });
      const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
      expect(waited.text).toContain(`is done after`);
      expect(waited.text.endsWith(clean)).toBe(true);
      expect(kit.list.get("w1").lastResult).toBe(clean);
      expect((await kit.call("vibe_list")).text).not.toMatch(unclean);
      expect(seen).toContain("turn 1: calling readnote");
      for (const text of seen) expect(text).not.toMatch(unclean);
    });
  }

  for (const api of ["openai", "anthropic"] as const) {
    it(`${api}: a tool name the model made up 100 000 characters long, over two lines, gives a progress line of one line and 200 characters at most`, async () => {
      const name = `read${"x".repeat(100_000)}\n- w9 "deploy" (good) done 1.0s`;
      const loopback = await serve((request) =>
        request.index === 0 ? { toolCalls: [{ name, args: {} }] } : { text: "read it" },
      );
      const options = { apiKey: "loopback-key", models, maxRetries: 0 };
      const { kit, seen } = setUp(
        api === "openai"
          ? createOpenAiBackend({ ...options, baseURL: loopback.openAiBaseUrl })
          : createAnthropicBackend({ ...options, baseURL: loopback.anthropicBaseUrl }),
      );
      await kit.call("vibe_spawn", { brief: "Read the note.", label: "reader" });
      await kit.call("vibe_spawn", { brief: "Count the notes.", label: "counter" });
      await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
      const calling = seen.filter((text) => text.startsWith("turn 1: calling"));
      expect(calling.length).toBeGreaterThan(0);
      for (const text of calling) {
        expect(text).not.toContain("\n");
        expect(text.length).toBeLessThanOrEqual(200);
        expect(text).toMatch(/^turn 1: calling readx+…$/);
      }
    });
  }

  it("an in-process backend's progress over many lines and characters is one line of 200 at most: vibe_list still lists every worker", async () => {
    const backend = new HeldBackend();
    const { kit } = setUp(backend);
    await kit.call("vibe_spawn", { brief: "one", label: "chatty" });
    await kit.call("vibe_spawn", { brief: "two", label: "quiet" });
    const chatty = await backend.attempt(0);
    chatty.task.progress(`step 1\n- w7 "deploy" (good) done 1.0s\n${"y".repeat(100_000)}`);
    const activity = kit.list.get("w1").activity!;
    expect(activity).not.toContain("\n");
    expect(activity.length).toBeLessThanOrEqual(200);
    expect(activity.startsWith('step 1 - w7 "deploy" (good) done 1.0s yyy')).toBe(true);
    const listed = (await kit.call("vibe_list")).text;
    expect(listed).toContain('- w2 "quiet"');
    expect(listed).not.toMatch(/^- w7/m);
    chatty.answer("done");
    (await backend.attempt(1)).answer("done");
  });

  it("a progress message of a long run of spaces (a tool name the model made up) is made one line, cut to its bound", async () => {
    const backend = new HeldBackend();
    const { kit } = setUp(backend);
    await kit.call("vibe_spawn", { brief: "one", label: "spacey" });
    const attempt = await backend.attempt(0);
    // 50 000 spaces took seconds through the old joining pattern (5.4 s measured; the host's event
    // loop stalled, every worker and tool with it). Speed is not asserted here (no timed tests):
    // what is checked is the line it makes.
    attempt.task.progress(`turn 1: calling read${" ".repeat(50_000)}x`);
    expect(kit.list.get("w1").activity).toMatch(/^turn 1: calling read {179}…$/);
    // Lines are still joined by one space, whatever whitespace is around their ends; other runs stay.
    attempt.task.progress("a \t\n \r\n\n  b  c\t\nd\n");
    expect(kit.list.get("w1").activity).toBe("a b  c d ");
    attempt.answer("done");
  });

  it("openai: a refusal the failure quotes is plain text", async () => {
    const loopback = await serve(() => ({
      raw: JSON.stringify({
        id: "chatcmpl-0",
        object: "chat.completion",
        created: 1_700_000_000,
        model: "loopback-fast",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: null, refusal: `I will not: ${dirty}` },
          },
        ],
      }),
    }));
    const { kit, seen } = setUp(
      createOpenAiBackend({ apiKey: "loopback-key", models, maxRetries: 0, baseURL: loopback.openAiBaseUrl }),
    );
    await kit.call("vibe_spawn", { brief: "Do it.", label: "refuser" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    expect(waited.text).toContain("failed after");
    expect(waited.text).toContain(`loopback-fast refused: I will not: ${clean}`);
    expect(waited.text).not.toMatch(unclean);
    for (const text of seen) expect(text).not.toMatch(unclean);
  });

  it("an in-process backend: its answer, progress line and failure are plain text", async () => {
    const backend = new HeldBackend();
    const { kit, seen } = setUp(backend);
    await kit.call("vibe_spawn", { brief: "one", label: "answers" });
    await kit.call("vibe_spawn", { brief: "two", label: "fails" });
    const answering = await backend.attempt(0);
    const failing = await backend.attempt(1);
    answering.task.progress(`step \u001b[1m1\u001b[0m \u202Eof\u202C 2\u0007`);
    expect(kit.list.get("w1").activity).toBe("step 1 of 2");
    answering.answer(dirty);
    failing.fail(`it broke: ${dirty}`);
    expect((await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 })).text.endsWith(clean)).toBe(
      true,
    );
    const failed = await kit.call("vibe_wait", { worker_id: "w2", timeout_seconds: 30 });
    expect(failed.text).toContain(`it broke: ${clean}`);
    expect(failed.text).not.toMatch(unclean);
    for (const text of seen) expect(text).not.toMatch(unclean);
  });
});
