import { describe, expect, it } from "vitest";
import { runCli } from "../__fixtures__/cli-process.js";

interface OpenAiTool {
  type: string;
  function: {
    name: string;
    strict: boolean;
    parameters: { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
  };
}

describe("harness-demo CLI", () => {
  it("tools --format openai prints strict function schemas for the surface", async () => {
    const main = await runCli(["tools", "--surface", "main", "--format", "openai"]);
    expect(main.code).toBe(0);
    const tools = JSON.parse(main.stdout) as OpenAiTool[];
    expect(tools.map((tool) => tool.function.name)).toEqual([
      "read",
      "grep",
      "write",
      "edit",
      "apply_patch",
      "shell",
      "ast_grep",
      "ast_edit",
      "resolve",
      "ask_user",
      "eval",
      "debug",
      "lsp",
      "lsp_rename",
    ]);
    for (const tool of tools) {
      expect(tool.type).toBe("function");
      expect(tool.function.strict).toBe(true);
      expect(tool.function.parameters.additionalProperties).toBe(false);
      expect([...tool.function.parameters.required].sort()).toEqual(
        Object.keys(tool.function.parameters.properties).sort(),
      );
    }
    const plan = JSON.parse(
      (await runCli(["tools", "--surface", "plan", "--format", "anthropic"])).stdout,
    ) as { name: string }[];
    expect(plan.map((tool) => tool.name)).toEqual(["read", "grep", "ast_grep", "ask_user", "lsp"]);
  });

  it("refuses an unknown surface or format with a usage error", async () => {
    const surface = await runCli(["tools", "--surface", "nope"]);
    expect(surface.code).toBe(1);
    expect(surface.stderr).toContain("unknown surface 'nope'; known surfaces: main, plan, readonly, worker");
    const format = await runCli(["tools", "--format", "yaml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format must be one of json, anthropic, openai");
  });

  it("tools --format json carries tier and parallel-safety", async () => {
    const json = await runCli(["tools"]);
    const tools = JSON.parse(json.stdout) as {
      name: string;
      tier: string;
      parallelSafe: boolean;
      inputSchema: object;
    }[];
    expect(tools.find((tool) => tool.name === "shell")).toMatchObject({ tier: "exec", parallelSafe: false });
    expect(tools.find((tool) => tool.name === "edit")).toMatchObject({ tier: "write", parallelSafe: true });
  });

  it("refuses an unknown command with exit code 2", async () => {
    const bogus = await runCli(["bogus"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("unknown command 'bogus'; commands: tour, serve, interactive, tools");
  });

  it("prints help", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("harness-demo serve --workdir DIR");
    // The modes of issue 9 and the environment the model backends read.
    for (const needle of [
      "--operator none|jsonl",
      '{"card_id": "…", "decline": true}',
      "--vibe-command CMD",
      '--model openai|anthropic "task"',
      "(or --interactive)",
      "OPENAI_BASE_URL",
      "ANTHROPIC_API_KEY",
    ]) {
      expect(help.stdout).toContain(needle);
    }
  });

  it("refuses --interactive with another command, and --vibe without a backend", async () => {
    const both = await runCli(["serve", "--interactive"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--interactive is a mode of its own");
    const vibe = await runCli(["serve", "--workdir", ".", "--vibe"], 15_000, {
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_API_KEY: "",
    });
    expect(vibe.code).toBe(2);
    expect(vibe.stderr).toContain("--vibe needs a worker backend: --vibe-command CMD");
  });
});
