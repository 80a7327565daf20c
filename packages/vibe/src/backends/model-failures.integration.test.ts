import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  startScriptedModelServer,
  type Step,
  type ScriptedModelServer,
} from "../__fixtures__/scripted-model-server.js";
import { createKit, type Kit } from "../__fixtures__/test-kit.js";
import { createAnthropicBackend } from "./anthropic-backend.js";
import { createOpenAiBackend } from "./openai-backend.js";

const models = { fast: "loopback-fast", good: "loopback-good" };

/** The first progress line of a worker of `kit` that matches `pattern` (bounded). */
function activity(kit: Kit, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no progress line matched ${String(pattern)}`)), 10_000);
    const off = kit.list.on((event) => {
      const line = event.worker.activity;
      if (line === undefined || !pattern.test(line)) return;
      clearTimeout(timer);
      off();
      resolve(line);
    });
  });
}

/**
 * Records the timers set through the global `setTimeout` from now until `restore()` (as a model
 * SDK's wait before a retry sets them): `pending()` lists the delays of those that neither fired
 * nor were cleared; `settled(ms)` waits (bounded) until none is pending.
 */
function watchTimers(): { pending(): number[]; settled(ms: number): Promise<void>; restore(): void } {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Map<unknown, number>();
  const wrappedSet = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle: unknown = realSet(
      (...callArgs: unknown[]) => {
        live.delete(handle);
        callback(...callArgs);
      },
      ms,
      ...args,
    );
    live.set(handle, ms ?? 0);
    return handle;
  }) as unknown as typeof setTimeout;
  const wrappedClear = ((handle: Parameters<typeof clearTimeout>[0]) => {
    live.delete(handle);
    realClear(handle);
  }) as typeof clearTimeout;
  globalThis.setTimeout = wrappedSet;
  globalThis.clearTimeout = wrappedClear;
  const pending = (): number[] => [...live.values()];
  return {
    pending,
    settled: async (ms) => {
      const deadline = Date.now() + ms;
      while (pending().length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => realSet(resolve, 20));
      }
    },
    restore: () => {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    },
  };
}

// What vibe_wait tells the lead about a worker whose model request failed depends on what failed:
// the configuration (no rerun can help), the model server (a rerun of the same brief may), or the
// task. Real SDKs against the loopback server; no model API is called.
describe("a failed model request, as vibe_wait tells it", () => {
  let server: ScriptedModelServer | undefined;
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
  });

  async function failedWait(api: "openai" | "anthropic", step: Step, maxRetries = 0): Promise<string> {
    server = await startScriptedModelServer(() => step);
    const options = { apiKey: "loopback-key", models, maxRetries };
    kit = createKit({
      backend:
        api === "openai"
          ? createOpenAiBackend({ ...options, baseURL: server.openAiBaseUrl })
          : createAnthropicBackend({ ...options, baseURL: server.anthropicBaseUrl }),
    });
    await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 60 });
    expect(waited.text).toContain('w1 "greeter" (fast) failed after');
    return waited.text;
  }

  it.each(["openai", "anthropic"] as const)(
    "%s: a refused key (401) is the configuration's fault: it says what to check, and that a retry cannot help",
    async (api) => {
      const text = await failedWait(api, { status: 401, message: "invalid x-api-key" });
      expect(text).toContain("invalid x-api-key");
      expect(text).toContain(
        `(the server refused the API key: check the backend's apiKey (or ${api === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN"}))`,
      );
      expect(text).toContain("A retry cannot help");
      expect(text).not.toContain("retry with more guidance");
      expect(kit!.list.get("w1").failure).toBe("setup");
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: an unknown model (404) is the configuration's fault too",
    async (api) => {
      const text = await failedWait(api, { status: 404, message: "model loopback-fast does not exist" });
      expect(text).toContain(
        "(the server has no such model or endpoint: check the backend's models and baseURL)",
      );
      expect(text).toContain("A retry cannot help");
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: a proxy's HTML page in place of the API is the configuration's fault: a retry cannot help",
    async (api) => {
      const text = await failedWait(api, { raw: "<html>proxy login</html>", contentType: "text/html" });
      expect(text).toContain("the reply starts: <html>proxy login</html>. Check that the backend's baseURL");
      expect(text).toContain("A retry cannot help");
      expect(kit!.list.get("w1").failure).toBe("setup");
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: a server error after the retries is the server's: it counts the tries and asks for no new guidance",
    async (api) => {
      const text = await failedWait(api, { status: 500, message: "loopback model exploded" }, 1);
      expect(server!.requests).toHaveLength(2);
      expect(text).toContain("loopback model exploded");
      expect(text).toMatch(/failed: 500 .*loopback model exploded.* \(after 2 tries\)/);
      expect(text).toContain(
        "The model server failed, not the task, so the brief needs no change: vibe_send w1",
      );
      expect(text).not.toContain("retry with more guidance");
      expect(kit!.list.get("w1").failure).toBe("unavailable");
    },
  );

  it.each(["openai", "anthropic"] as const)("%s: a rate limit (429) is the server's", async (api) => {
    const text = await failedWait(api, { status: 429, message: "slow down" });
    expect(text).toContain("slow down");
    expect(text).toContain("The model server failed, not the task");
    expect(kit!.list.get("w1").failure).toBe("unavailable");
  });

  it("openai: a 429 whose code says the quota is used up is the account's fault: waiting does not help", async () => {
    const text = await failedWait("openai", {
      status: 429,
      message: "You exceeded your current quota, please check your plan and billing details.",
      code: "insufficient_quota",
    });
    expect(text).toContain("You exceeded your current quota");
    expect(text).toContain(
      "(the account of the API key has no credit or quota left: check its plan and billing (the key: the backend's apiKey (or OPENAI_API_KEY)); waiting does not help)",
    );
    expect(text).toContain("A retry cannot help");
    expect(kit!.list.get("w1").failure).toBe("setup");
  });

  it.each(["openai", "anthropic"] as const)(
    "%s: a payment required (402) is the account's fault, not the task's",
    async (api) => {
      const text = await failedWait(api, { status: 402, message: "payment required" });
      expect(text).toContain("the account of the API key has no credit or quota left");
      expect(text).toContain("A retry cannot help");
      expect(text).not.toContain("retry with more guidance");
      expect(kit!.list.get("w1").failure).toBe("setup");
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: a refused connection names the host and asks to check the baseURL",
    async (api) => {
      // A port nothing listens on: one a server had, closed again.
      const closed = await startScriptedModelServer(() => ({ text: "unused" }));
      const baseURL = api === "openai" ? closed.openAiBaseUrl : closed.anthropicBaseUrl;
      const host = new URL(baseURL).host;
      await closed.close();
      const options = { apiKey: "loopback-key", models, maxRetries: 0, baseURL };
      kit = createKit({
        backend: api === "openai" ? createOpenAiBackend(options) : createAnthropicBackend(options),
      });
      await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
      const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 60 });
      expect(waited.text).toContain('w1 "greeter" (fast) failed after');
      expect(waited.text).toContain(
        `(nothing accepted the connection at ${host}: check the backend's baseURL, and that the model server there is running)`,
      );
      expect(kit.list.get("w1").failure).toBe("unavailable");
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: a request the server cannot take (400) may be the task's: more guidance may help",
    async (api) => {
      const text = await failedWait(api, { status: 400, message: "prompt is too long" });
      expect(text).toContain("prompt is too long");
      expect(text).toContain("vibe_send w1 to retry with more guidance, or do it yourself.");
      expect(kit!.list.get("w1").failure).toBeUndefined();
    },
  );

  it("anthropic: a worker that finds no credential is the configuration's fault: a retry cannot help", async () => {
    const names = [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "ANTHROPIC_BASE_URL",
      "ANTHROPIC_PROFILE",
      "ANTHROPIC_CONFIG_DIR",
    ];
    const saved = new Map(names.map((name) => [name, process.env[name]]));
    // An empty configuration folder: no profile of this machine's can supply a credential.
    const configDir = mkdtempSync(join(tmpdir(), "vibe-anthropic-config-"));
    for (const name of names) delete process.env[name];
    process.env["ANTHROPIC_CONFIG_DIR"] = configDir;
    try {
      kit = createKit({ backend: createAnthropicBackend({ models, maxRetries: 0 }) });
      await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
      const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 60 });
      expect(waited.text).toContain("the anthropic backend has no credentials: set ANTHROPIC_API_KEY");
      expect(waited.text).toContain("A retry cannot help");
      expect(waited.text).not.toContain("retry with more guidance");
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it.each(["openai", "anthropic"] as const)(
    "%s: vibe_kill while waiting out a 429's retry-after stops the worker at once, leaving no timer and sending nothing more",
    async (api) => {
      server = await startScriptedModelServer(() => ({
        status: 429,
        message: "slow down",
        headers: { "retry-after": "3600" },
      }));
      const options = { apiKey: "loopback-key", models, maxRetries: 1, requestTimeoutMs: 30_000 };
      kit = createKit({
        backend:
          api === "openai"
            ? createOpenAiBackend({ ...options, baseURL: server.openAiBaseUrl })
            : createAnthropicBackend({ ...options, baseURL: server.anthropicBaseUrl }),
        stopTimeoutMs: 3000,
      });
      const timers = watchTimers();
      try {
        const waiting = activity(kit, /trying again/);
        await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
        // The SDK has dropped the 429's body: the hour the server asked for is being waited out.
        expect(await waiting).toBe(
          "turn 1: loopback-fast: the server answered status 429; trying again in 1h 00m, as it asked (try 2 of 2)",
        );
        const killed = await kit.call("vibe_kill", { worker_id: "w1" });
        expect(killed.text).toBe(
          'Killed w1 "greeter"; it and everything it started have stopped. It was in model turn 1, having made no tool calls.',
        );
        expect(kit.list.get("w1").lastResult).toBe(
          "killed by vibe_kill; it was stopped before it finished. It was in model turn 1, having made no tool calls.",
        );
        // No timer of the request is left: none keeps the process alive for the hour, and none can
        // send the retry later (bounded wait: a kill ends the wait when its abort runs).
        await timers.settled(5000);
        expect(timers.pending()).toEqual([]);
        expect(server.requests).toHaveLength(1);
      } finally {
        timers.restore();
      }
    },
  );

  it("openai: a retry-after of 0 asks for no wait: the progress line names none", async () => {
    server = await startScriptedModelServer(() => ({
      status: 429,
      message: "slow down",
      headers: { "retry-after": "0" },
    }));
    kit = createKit({
      backend: createOpenAiBackend({
        apiKey: "loopback-key",
        models,
        maxRetries: 1,
        baseURL: server.openAiBaseUrl,
      }),
      // Every progress line as an event: the retry's line is followed at once by the next.
      activityIntervalMs: 0,
    });
    const waiting = activity(kit, /trying again/);
    await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
    expect(await waiting).toBe(
      "turn 1: loopback-fast: the server answered status 429; trying again (try 2 of 2)",
    );
  });
});
