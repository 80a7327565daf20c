import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, ServeSession } from "../__fixtures__/cli-process.js";

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
    expect(surface.code).toBe(2);
    expect(surface.stderr).toBe(
      "harness-demo: --surface: unknown surface 'nope'; known surfaces: main, plan, readonly, worker\n" +
        "Run harness-demo --help for usage.\n",
    );
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
      // serve takes --python like --interactive and --model; tools --vibe; CMD is split as sh does.
      "[--conversation ID] [--python PATH]",
      "vibe_* tools as on a model backend; --vibe-command: as on",
      `--vibe-command "sh -c 'echo {tier}; cat'"`,
      "ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set",
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
      ANTHROPIC_BASE_URL: "",
    });
    expect(vibe.code).toBe(2);
    expect(vibe.stderr).toContain("--vibe needs a worker backend: --vibe-command CMD");
  });

  it("tools --vibe includes the vibe_* schemas without any worker backend configured", async () => {
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "" };
    const plain = JSON.parse((await runCli(["tools"], 15_000, env)).stdout) as { name: string }[];
    expect(plain.map((tool) => tool.name)).not.toContain("vibe_spawn");
    const vibe = await runCli(["tools", "--vibe", "--format", "openai"], 15_000, env);
    expect(vibe.code).toBe(0);
    const names = (JSON.parse(vibe.stdout) as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );
    for (const name of ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"])
      expect(names).toContain(name);
  });

  it("tools --vibe-command lists vibe_spawn and vibe_send as a run on that agent CLI has them (exec, ungated)", async () => {
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_API_KEY: "", ANTHROPIC_BASE_URL: "" };
    type Schema = { name: string; description: string };
    const list = async (args: string[]) => {
      const result = await runCli(["tools", ...args], 15_000, env);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Schema[];
    };
    const spawnOf = (schemas: Schema[]) => schemas.find((tool) => tool.name === "vibe_spawn");
    const gated = spawnOf(await list(["--vibe"]));
    const ungated = spawnOf(await list(["--vibe-command", "no-such-agent {tier}"]));
    expect(gated?.description).toBeDefined();
    expect(ungated?.description).toBeDefined();
    expect(ungated?.description).not.toBe(gated?.description);
    expect(ungated?.description).toMatch(/ungated|approval/i);
    // Exec tools there: not on the read-only surfaces, as in serve --vibe-command.
    const plan = await list(["--surface", "plan", "--vibe-command", "no-such-agent"]);
    expect(plan.map((tool) => tool.name)).not.toContain("vibe_spawn");
    expect(plan.map((tool) => tool.name)).toContain("vibe_list");
    expect((await list(["--surface", "plan", "--vibe"])).map((tool) => tool.name)).toContain("vibe_spawn");
  });

  it("names every option and flag a command takes when refusing one, and refuses a flag it does not take", async () => {
    const serve = await runCli(["serve", "--workdir", ".", "--nope", "x"]);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(
      "unknown option --nope for 'serve'; it takes --workdir, --approval, --conversation, --operator, --python, --vibe-command, --vibe",
    );
    const tour = await runCli(["tour", "--vibe"]);
    expect(tour.code).toBe(2);
    expect(tour.stderr).toContain("--vibe does not apply to 'tour'; it takes --out");
  });

  it(
    "serve --python runs eval's Python on that interpreter when the folder has no .venv",
    { timeout: 60_000 },
    async () => {
      const dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-python-")));
      const session = new ServeSession([
        "--workdir",
        dir,
        "--approval",
        "auto",
        "--python",
        "/usr/bin/python3",
      ]);
      try {
        const cell = await session.call(
          {
            id: "py",
            tool: "eval",
            args: { code: "import sys\nsys.executable", description: "show which python interpreter runs" },
          },
          45_000,
        );
        expect(cell).toMatchObject({ id: "py", ok: true });
        expect(JSON.stringify(cell["content"])).toContain("/usr/bin/python3");
        expect(await session.close(20_000)).toBe(0);
      } finally {
        if (session.child.exitCode === null) session.child.kill("SIGKILL");
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
