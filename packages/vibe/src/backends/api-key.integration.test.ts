import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../__fixtures__/scripted-model-server.js";
import { createKit, type Kit } from "../__fixtures__/test-kit.js";
import { VibeError } from "../errors/vibe-error.js";
import { createBackend } from "./backend-config.js";

const models = { fast: "loopback-fast", good: "loopback-good" };
const keyVariables = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
];

describe("model backends without an API key (loopback server, no real model API)", () => {
  const saved = new Map<string, string | undefined>();
  let server: ScriptedModelServer | undefined;
  let kit: Kit | undefined;
  beforeEach(() => {
    for (const name of keyVariables) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
  });
  afterEach(async () => {
    await kit?.cleanup();
    await server?.close();
    kit = undefined;
    server = undefined;
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  async function answerOnce(backend: unknown): Promise<string> {
    kit = createKit({ backend: backend as never });
    await kit.call("vibe_spawn", { brief: "Say hi", label: "greeter" });
    return (await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 })).text;
  }

  it("openai: a baseURL with no key set (the README's configuration) sends a placeholder key", async () => {
    server = await startScriptedModelServer(() => ({ text: "hi" }));
    const waited = await answerOnce({ kind: "openai", baseURL: server.openAiBaseUrl, models, maxRetries: 0 });
    expect(waited).toContain('w1 "greeter" (fast) is done after');
    expect(server.requests[0]?.headers.authorization).toBe("Bearer no-key");
  });

  it("openai: no key and no baseURL is a configuration error naming what to set", () => {
    let thrown: unknown;
    try {
      createBackend({ kind: "openai", models });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VibeError);
    expect((thrown as VibeError).code).toBe("INVALID_BACKEND_CONFIG");
    expect((thrown as VibeError).message).toContain("set OPENAI_API_KEY or pass apiKey");
  });

  it("openai: OPENAI_API_KEY is sent when set", async () => {
    process.env["OPENAI_API_KEY"] = "from-env";
    server = await startScriptedModelServer(() => ({ text: "hi" }));
    await answerOnce({ kind: "openai", baseURL: server.openAiBaseUrl, models, maxRetries: 0 });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer from-env");
  });

  it("anthropic: ANTHROPIC_AUTH_TOKEN is used when no key is given, and a baseURL alone gets a placeholder", async () => {
    process.env["ANTHROPIC_AUTH_TOKEN"] = "token-from-env";
    server = await startScriptedModelServer(() => ({ text: "hi" }));
    const config = { kind: "anthropic", baseURL: server.anthropicBaseUrl, models, maxRetries: 0 };
    expect(await answerOnce(config)).toContain("is done after");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer token-from-env");
    await kit?.cleanup();
    kit = undefined;

    delete process.env["ANTHROPIC_AUTH_TOKEN"];
    expect(await answerOnce(config)).toContain("is done after");
    expect(server.requests[1]?.headers.authorization).toBe("Bearer no-key");
  });
});
