import { createRegistry, createRun, surfaces } from "@tools/registry";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@tools/vibe public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        "VibeError",
        "VibeList",
        "backendConfigSchema",
        "createAnthropicBackend",
        "createBackend",
        "createCommandBackend",
        "createOpenAiBackend",
        "createVibeList",
        "defaultWorkerInstructions",
        "isFinished",
        "vibeKillTool",
        "vibeListKey",
        "vibeListTool",
        "vibeSendTool",
        "vibeSpawnTool",
        "vibeTools",
        "vibeWaitTool",
        "workerTiers",
      ].sort(),
    );
  });
});

describe("registration", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the five read-tier tools appear only while the vibe list is wired, on plan mode too", async () => {
    dir = mkdtempSync(join(tmpdir(), "vibe-reg-"));
    const registry = createRegistry({ tools: [...api.vibeTools] });
    const run = createRun({ workingDirectory: dir });
    expect(registry.toolsFor(run, "main")).toEqual([]);
    const refused = await registry.invoke(run, { tool: "vibe_list" });
    expect(refused.error?.code).toBe("TOOL_NOT_WIRED");
    expect(refused.error?.message).toContain("no vibe list is wired");

    const list = api.createVibeList({
      registry,
      run,
      backend: { kind: "openai", baseURL: "http://127.0.0.1:9/v1", models: { fast: "a", good: "b" } },
    });
    run.wire(api.vibeListKey, list);
    const names = ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"];
    expect(registry.toolsFor(run, "main").map((tool) => tool.name)).toEqual(names);
    expect(registry.toolsFor(run, surfaces.plan).map((tool) => tool.name)).toEqual(names);
    expect(registry.toolsFor(run, "main").every((tool) => tool.tier === "read")).toBe(true);
    expect(api.vibeTools.every((tool) => tool.tier === "read")).toBe(true);
    await run.dispose();
  });

  it("on an ungated (command) backend vibe_spawn and vibe_send are exec: approved per call, absent from plan mode", async () => {
    dir = mkdtempSync(join(tmpdir(), "vibe-reg-"));
    const registry = createRegistry({ tools: [...api.vibeTools] });
    const run = createRun({ workingDirectory: dir });
    run.wire(
      api.vibeListKey,
      api.createVibeList({ registry, run, backend: { kind: "command", command: ["true"] } }),
    );
    const main = registry.toolsFor(run, "main");
    expect(main.map((tool) => `${tool.name}:${tool.tier}`)).toEqual([
      "vibe_spawn:exec",
      "vibe_send:exec",
      "vibe_wait:read",
      "vibe_kill:read",
      "vibe_list:read",
    ]);
    expect(main[0]?.description).toContain("WITHOUT asking for approval per action");
    expect(main[0]?.description).not.toContain("go to the operator for approval");
    expect(registry.toolsFor(run, surfaces.plan).map((tool) => tool.name)).toEqual([
      "vibe_wait",
      "vibe_kill",
      "vibe_list",
    ]);
    await run.dispose();
  });
});

describe("backend configuration", () => {
  it("builds each kind and says what is wrong with a bad configuration", () => {
    expect(
      api.createBackend({ kind: "openai", apiKey: "k", models: { fast: "a", good: "b" } }).description,
    ).toContain("OpenAI-compatible API at https://api.openai.com/v1 (fast: a, good: b)");
    expect(
      api.createBackend({
        kind: "anthropic",
        apiKey: "k",
        baseURL: "http://127.0.0.1:9",
        models: { fast: "h", good: "o" },
      }).description,
    ).toBe("Anthropic API at http://127.0.0.1:9 (fast: h, good: o)");
    expect(api.createBackend({ kind: "command", command: ["agent", "-p"] }).description).toBe(
      "command agent -p",
    );
    expect(() => api.createBackend({ kind: "openai", models: { fast: "a" } })).toThrow(
      /invalid vibe backend configuration: models\.good: .*Expected kind "openai"/,
    );
    expect(() => api.createBackend({ kind: "smoke-signals" })).toThrow(
      /INVALID|invalid vibe backend configuration/,
    );
  });
});
