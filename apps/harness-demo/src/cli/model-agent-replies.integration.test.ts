// harness-demo --model against a CANNED model server on 127.0.0.1 (not a model): the odd replies
// compatible servers and proxies really send, a server that hangs, the turn limit, and vibe mode.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliPath } from "../__fixtures__/cli-process.js";
import { commandLine, descendants } from "../__fixtures__/process-tree.js";
import {
  chatCompletion,
  readCall,
  startCannedModelServer,
  type CannedModelServer,
  type CannedReply,
} from "../__fixtures__/canned-model-server.js";

let server: CannedModelServer | undefined;
let dir = "";

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-model-")));
  await writeFile(join(dir, "a.txt"), "alpha line\n");
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Runs `--model` against canned replies; bounded (the child is killed after 60 s). */
async function runModel(
  provider: "openai" | "anthropic",
  replies: readonly CannedReply[],
  extraArgs: readonly string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  server = await startCannedModelServer(replies);
  const endpoint: Record<string, string> =
    provider === "openai"
      ? { OPENAI_BASE_URL: server.openAiBaseUrl, OPENAI_MODEL: "canned-model", ANTHROPIC_BASE_URL: "" }
      : { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_MODEL: "canned-model", OPENAI_BASE_URL: "" };
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    HARNESS_DEMO_MODEL_TIMEOUT: "",
    HARNESS_DEMO_MAX_TURNS: "",
    ...endpoint,
    ...extraEnv,
  };
  return await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cliPath, "--model", provider, "read a.txt", "--workdir", dir, "--approval", "auto", ...extraArgs],
      { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`--model did not finish\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const done = chatCompletion({ content: "[canned] done" }, "stop");

describe(
  "harness-demo --model against a CANNED OpenAI/Anthropic-compatible server on 127.0.0.1",
  { timeout: 70_000 },
  () => {
    it("runs a call whose arguments are an object, and shows calls with missing or broken arguments, sent back as INVALID_ARGUMENTS", async () => {
      const result = await runModel("openai", [
        chatCompletion(
          {
            tool_calls: [
              readCall({ path: "a.txt" }, "c1"),
              readCall(undefined, "c2"),
              readCall('{"path": "a', "c3"),
              { id: "c4", function: { name: "read", arguments: '{"path":"a.txt","limit":1}' } },
            ],
          },
          "tool_calls",
        ),
        done,
      ]);
      expect(result.stderr).not.toContain("harness-demo --model:");
      expect(result.stdout).toContain('→ read {"path":"a.txt"}\n← ok\n');
      expect(result.stdout).toContain("alpha line");
      expect(result.stdout).toContain("→ read (no arguments)\n← error INVALID_ARGUMENTS (not run)\n");
      expect(result.stdout).toContain('→ read {"path": "a\n← error INVALID_ARGUMENTS (not run)\n');
      expect(result.stdout).toContain('→ read {"path":"a.txt","limit":1}\n← ok\n'); // no "type": still a call
      expect(result.stdout).toContain("[canned] done");
      const sent = (server!.requests[1]?.["messages"] ?? []) as { role: string; content: string }[];
      const tool = sent.filter((message) => message.role === "tool").map((message) => message.content);
      expect(tool[1]).toContain("error (INVALID_ARGUMENTS): the call carried no arguments");
      expect(tool[2]).toContain("error (INVALID_ARGUMENTS): the arguments are not valid JSON");
      expect(result.code).toBe(0);
    });

    it("runs a call whose id is longer than the registry takes, under an id of the registry's", async () => {
      // The model's id is the registry call's id; one over 256 characters (a server's own
      // scheme) was refused as INVALID_REQUEST, and the call never ran.
      const result = await runModel("openai", [
        chatCompletion(
          { tool_calls: [readCall({ path: "a.txt" }, `call_${"x".repeat(300)}`)] },
          "tool_calls",
        ),
        done,
      ]);
      expect(result.stdout).toContain('→ read {"path":"a.txt"}\n← ok\n');
      expect(result.stdout).not.toContain("INVALID_REQUEST");
      expect(result.code).toBe(0);
    });

    it("folds a call's long arguments on the terminal as it folds results", async () => {
      const big = "q".repeat(200_000);
      const result = await runModel("openai", [
        chatCompletion(
          { tool_calls: [readCall(JSON.stringify({ path: "a.txt", note: big }))] },
          "tool_calls",
        ),
        done,
      ]);
      const line = result.stdout.split("\n").find((text) => text.startsWith("→ read "));
      expect(line).toBeDefined();
      expect(line!.length).toBeLessThan(1000);
      expect(result.stdout).toMatch(/… \d+ more characters/);
      expect(result.stdout).not.toContain(big);
    });

    it.each([
      [
        "openai",
        { raw: "<html>proxy login</html>", contentType: "text/html" },
        "(text/html), but the reply is not a chat completion",
      ],
      [
        "anthropic",
        { raw: "<html>proxy login</html>", contentType: "text/html" },
        "(text/html), but the reply is not a message",
      ],
      ["openai", { json: { error: { message: "bad" } } }, 'it carried the error "bad"'],
      ["anthropic", { json: { error: { message: "bad" } } }, 'it carried the error "bad"'],
    ] as const)(
      "%s: a 200 reply that is no completion says which server answered what (%j)",
      async (provider, reply, expected) => {
        const result = await runModel(provider, [reply]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("harness-demo --model: the server at http://127.0.0.1:");
        expect(result.stderr).toContain("answered the request for canned-model with status 200");
        expect(result.stderr).toContain(expected);
        expect(result.stderr).not.toContain("TypeError");
        expect(result.stderr).not.toContain("Cannot read properties");
      },
    );

    it.each([
      ["openai", chatCompletion({ content: null }, "stop"), "answered with an empty reply"],
      [
        "openai",
        chatCompletion({ content: "", tool_calls: [{ id: "c1" }] }, "tool_calls"),
        'finish_reason "tool_calls") but sent no call',
      ],
      [
        "openai",
        chatCompletion({ content: "The fix" }, "length"),
        'cut at its token limit (finish_reason "length")',
      ],
      [
        "anthropic",
        { json: { type: "message", role: "assistant", content: [], stop_reason: "end_turn" } },
        "answered with an empty reply",
      ],
      [
        "anthropic",
        {
          json: {
            type: "message",
            role: "assistant",
            content: [{ type: "text", text: "The fix" }],
            stop_reason: "max_tokens",
          },
        },
        'stop_reason "max_tokens"',
      ],
    ] as const)("%s: no answer is not taken for one (%j)", async (provider, reply, expected) => {
      const result = await runModel(provider, [reply]);
      expect(result.stderr).toContain(expected);
      expect(result.code).toBe(1);
    });

    it("gives up on a server that hangs after --model-timeout per try, saying so while it waits and when it retries", async () => {
      const result = await runModel("openai", [{ hang: true }], ["--model-timeout", "0.4"]);
      expect(result.stdout).toContain("0.4 s per request");
      expect(result.stderr).toContain("canned-model: still waiting for the reply after");
      expect(result.stderr).toContain("retrying the request (try 2 of 3) after no reply within 400ms");
      expect(result.stderr).toContain("retrying the request (try 3 of 3)");
      expect(result.stderr).toContain("failed: Request timed out. (400ms per try, at most 3 tries)");
      expect(result.code).toBe(1);
    });

    it("takes the request timeout from HARNESS_DEMO_MODEL_TIMEOUT, and refuses one that is no number", async () => {
      const result = await runModel("anthropic", [{ hang: true }], [], { HARNESS_DEMO_MODEL_TIMEOUT: "0.3" });
      expect(result.stderr).toContain("failed: Request timed out. (300ms per try, at most 3 tries)");
      expect(result.code).toBe(1);
      const wrong = await runModel("openai", [done], ["--model-timeout", "soon"]);
      expect(wrong.stderr).toContain(
        "--model-timeout must be a number of seconds from 0.1 to 86400 (24 h), not 'soon'",
      );
      expect(wrong.code).toBe(2);
      // Past 2^31-1 ms a Node timer fires at once: refused as a usage error.
      const tooLong = await runModel("openai", [done], ["--model-timeout", "3000000"]);
      expect(tooLong.stderr).toContain(
        "--model-timeout must be a number of seconds from 0.1 to 86400 (24 h), not '3000000'",
      );
      expect(tooLong.code).toBe(2);
    });

    it("stops at --max-turns (or HARNESS_DEMO_MAX_TURNS) in --model's own terms, saying what was done", async () => {
      const loop = chatCompletion({ tool_calls: [readCall('{"path":"a.txt"}')] }, "tool_calls");
      const result = await runModel("openai", [loop], ["--max-turns", "3"]);
      expect(result.stderr).toContain(
        "harness-demo --model: stopped after 3 model turns without a final answer (it did 3 model turns, 3 tool calls (read ×3)); give it a narrower task, or raise the limit with --max-turns N (or HARNESS_DEMO_MAX_TURNS; now 3)",
      );
      expect(result.stderr).not.toContain("vibe_send");
      expect(result.stderr).not.toContain("worker");
      expect(result.code).toBe(1);
      const fromEnv = await runModel("openai", [loop], [], { HARNESS_DEMO_MAX_TURNS: "1" });
      expect(fromEnv.stderr).toContain(
        "stopped after 1 model turn without a final answer (it did 1 model turn, 1 tool call (read ×1))",
      );
      expect(server!.requests.length).toBe(1);
    });
  },
);

/** The names of the tools a request to the canned server offered. */
function offeredTools(request: Record<string, unknown> | undefined): string[] {
  const tools = (request?.["tools"] ?? []) as { function?: { name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? "");
}

/** Whether a live process's command line holds `marker`. */
function processWith(marker: string): boolean {
  return descendants(1).some((pid) => commandLine(pid).includes(marker));
}

describe(
  "harness-demo --model --vibe (background workers) against a CANNED server, not a model",
  { timeout: 70_000 },
  () => {
    const call = (id: string, name: string, args: unknown) => ({
      id,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    });

    it("lets the model start a worker on --vibe-command and wait for it, showing the worker as it starts and ends", async () => {
      const result = await runModel(
        "openai",
        [
          chatCompletion(
            { tool_calls: [call("c1", "vibe_spawn", { brief: "echo built-ok", label: "build" })] },
            "tool_calls",
          ),
          chatCompletion({ tool_calls: [call("c2", "vibe_wait", { worker_id: "w1" })] }, "tool_calls"),
          done,
        ],
        ["--vibe-command", "sh"],
      );
      expect(result.stderr).not.toContain("harness-demo --model:");
      expect(result.stdout).toMatch(/; vibe on command sh\)\n/);
      expect(result.stdout).toMatch(/\n {2}worker w1 "build" \(\w+\) started\n/);
      expect(result.stdout).toMatch(/\n {2}worker w1 "build" \(\w+\) is done after \d+\.\d s: built-ok\n/);
      expect(result.stdout).toContain("built-ok");
      expect(offeredTools(server!.requests[0])).toEqual(
        expect.arrayContaining(["vibe_spawn", "vibe_wait", "vibe_list"]),
      );
      // The wait's result went back to the model.
      expect(JSON.stringify(server!.requests[2])).toContain("built-ok");
      expect(result.stdout).not.toContain("stopped with the run");
      expect(result.code).toBe(0);
    });

    it("stops the workers still running when the model answers, and says which", async () => {
      const marker = `sleep 61.${process.pid}`;
      const result = await runModel(
        "openai",
        [
          chatCompletion(
            { tool_calls: [call("c1", "vibe_spawn", { brief: `exec ${marker}`, label: "sleeper" })] },
            "tool_calls",
          ),
          done,
        ],
        ["--vibe-command", "sh"],
      );
      expect(result.stdout).toContain(
        '\n1 background worker was still running at the answer and is stopped with the run: w1 "sleeper"\n',
      );
      expect(result.code).toBe(0);
      expect(processWith(marker)).toBe(false);
    });

    it("tells a worker whose write finds no approver under --approval auto why, not to restart with auto", async () => {
      // The lead spawns a worker on the same (canned) provider and waits; the worker writes a file.
      // Before: the denial said "started with --approval ask" and "--approval auto would allow them".
      const result = await runModel(
        "openai",
        [
          chatCompletion(
            {
              tool_calls: [
                call("c1", "vibe_spawn", { brief: "write b.txt", label: "writer" }),
                call("c2", "vibe_wait", { worker_id: "w1" }),
              ],
            },
            "tool_calls",
          ),
          chatCompletion(
            { tool_calls: [call("d1", "write", { path: "b.txt", content: "x\n" })] },
            "tool_calls",
          ),
          chatCompletion({ content: "[canned] the write was denied" }, "stop"),
          done,
        ],
        ["--vibe"],
      );
      expect(result.code).toBe(0);
      const sent = (server!.requests[2]?.["messages"] ?? []) as { role: string; content: string }[];
      const denial = sent.find((message) => message.role === "tool")?.content ?? "";
      expect(denial).toContain("error (NO_APPROVER)");
      expect(denial).toContain("even under --approval auto");
      expect(denial).not.toContain("started with --approval ask");
      expect(denial).not.toMatch(/or with --approval auto/);
    });

    it("offers the vibe tools only with --vibe, whose workers run on the same provider", async () => {
      const plain = await runModel("openai", [done]);
      expect(offeredTools(server!.requests[0])).not.toContain("vibe_spawn");
      expect(plain.code).toBe(0);
      await server?.close();
      const vibe = await runModel("openai", [done], ["--vibe"]);
      expect(vibe.stdout).toMatch(
        /; vibe on OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+\/v1 \(fast: canned-model, good: canned-model\)\)\n/,
      );
      expect(offeredTools(server!.requests[0])).toContain("vibe_spawn");
      expect(vibe.code).toBe(0);
    });
  },
);
