import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { cliPath } from "../__fixtures__/cli-process.js";
import { startScriptedModelServer, type ScriptedModelServer } from "./tour/scripted-model-server.js";
import { copySampleWorkspace, type WorkspaceCopy } from "./tour/sample-workspace.js";

let model: ScriptedModelServer | undefined;
let workspace: WorkspaceCopy | undefined;

afterEach(async () => {
  await model?.close();
  await workspace?.remove();
  model = undefined;
  workspace = undefined;
});

function runAgent(args: readonly string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd,
      env: {
        ...process.env,
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        ANTHROPIC_API_KEY: "",
        ANTHROPIC_BASE_URL: "",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the agent did not finish\n${stdout}\n${stderr}`));
    }, 30_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("harness-demo --model (an agent loop in the demo run)", () => {
  it(
    "--model openai works on the task against a SCRIPTED OpenAI-compatible server on 127.0.0.1 (OPENAI_BASE_URL), not a real model",
    { timeout: 40_000 },
    async () => {
      model = await startScriptedModelServer();
      workspace = await copySampleWorkspace({ venv: false });
      const result = await runAgent(
        ["--model", "openai", "read src/greet.ts and tell me its first line", "--workdir", workspace.path],
        { OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: "scripted-model" },
        workspace.path,
      );
      expect(result.stderr).not.toContain("harness-demo --model:");
      expect(result.stdout).toContain("harness-demo --model openai: scripted-model at http://127.0.0.1:");
      expect(result.stdout).toContain('→ read {"path":"src/greet.ts","limit":2}');
      expect(result.stdout).toContain("1\t/** A greeting for one person. */");
      expect(result.stdout).toContain(
        "[scripted model] I read it; its first line is: 1\t/** A greeting for one person. */",
      );
      expect(model.requests).toBe(2);
      expect(result.code).toBe(0);
    },
  );

  it("says which variables it needs when no key or base URL is set, and takes no task-less run", async () => {
    const missing = await runAgent(["--model", "anthropic", "do something"], {}, process.cwd());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("ANTHROPIC_API_KEY");
    const noTask = await runAgent(
      ["--model", "openai"],
      { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
      process.cwd(),
    );
    expect(noTask.code).toBe(2);
    expect(noTask.stderr).toContain("needs a task");
  });
});
