import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { WorkerTask } from "@tools/vibe";
import { describe, expect, it } from "vitest";
import { modelEnvironmentHelp, modelLimits, vibeBackend } from "./model-env.js";
import { splitCommand } from "./split-command.js";

/** A task for a backend that calls no tool. */
function plainTask(brief: string): WorkerTask {
  return {
    workerId: "w1",
    label: "test",
    tier: "fast",
    brief,
    workingDirectory: process.cwd(),
    signal: new AbortController().signal,
    toolbox: {
      openAiTools: () => [],
      anthropicTools: () => [],
      call: () => Promise.reject(new Error("no tools")),
    },
    progress: () => undefined,
  };
}

describe("vibeBackend", () => {
  it("takes ANTHROPIC_BASE_URL alone (no key) as the anthropic backend, which then talks to that server", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url);
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "local",
            content: [{ type: "text", text: "[local] done" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const backend = vibeBackend(undefined, { ANTHROPIC_BASE_URL: baseUrl });
      expect(backend.description).toContain(`Anthropic API at ${baseUrl}`);
      expect(await backend.perform(plainTask("say done"))).toBe("[local] done");
      expect(seen).toEqual(["/v1/messages"]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    expect(modelEnvironmentHelp).toContain("ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set");
  });

  it("splits --vibe-command as sh does: quotes and backslashes group words", async () => {
    const backend = vibeBackend("sh -c 'echo {tier}; cat'", {});
    expect(backend.description).toBe("command sh -c echo {tier}; cat");
    expect((await backend.perform(plainTask("the brief\n"))).trim()).toBe("fast\nthe brief");
  });

  it("fills --vibe-command's {model} with the tier's model from the environment, or refuses it", async () => {
    const env = { OPENAI_FAST_MODEL: "small", OPENAI_GOOD_MODEL: "large" };
    const backend = vibeBackend("sh -c 'echo model={model}; cat >/dev/null' --model {model}", env);
    expect((await backend.perform({ ...plainTask("x"), tier: "good" })).trim()).toBe("model=large");
    expect((await backend.perform(plainTask("x"))).trim()).toBe("model=small");
    expect(() => vibeBackend("agent --model {model}", {})).toThrow(
      "--vibe-command uses {model}, but no model is set for it: set OPENAI_FAST_MODEL and OPENAI_GOOD_MODEL",
    );
    expect(vibeBackend("agent -p", {}).description).toBe("command agent -p");
  });

  it("refuses a command with no backend in the environment, naming every variable it reads", () => {
    expect(() => vibeBackend(undefined, {})).toThrow(
      "--vibe needs a worker backend: --vibe-command CMD, or OPENAI_API_KEY / OPENAI_BASE_URL, or ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL in the environment",
    );
  });
});

describe("splitCommand", () => {
  it("reads single and double quotes, backslashes, and empty words", () => {
    expect(splitCommand("agent --model {model}  --cwd {cwd}")).toEqual([
      "agent",
      "--model",
      "{model}",
      "--cwd",
      "{cwd}",
    ]);
    expect(splitCommand(`sh -c 'echo "{tier}"; cat'`)).toEqual(["sh", "-c", 'echo "{tier}"; cat']);
    expect(splitCommand(String.raw`say "a \"quoted\" \$x \n" it\'s\ fine`)).toEqual([
      "say",
      'a "quoted" $x \\n',
      "it's fine",
    ]);
    expect(splitCommand(`a '' b""c`)).toEqual(["a", "", "bc"]);
    expect(splitCommand("my\\ agent --flag")).toEqual(["my agent", "--flag"]);
  });

  it("refuses an unclosed quote, a trailing backslash and an empty command", () => {
    expect(() => splitCommand("sh -c 'echo")).toThrow(
      "--vibe-command has an unclosed single quote (at character 7); close it with '",
    );
    expect(() => splitCommand('a "b')).toThrow("unclosed double quote");
    expect(() => splitCommand("a \\")).toThrow("ends with a lone backslash");
    expect(() => splitCommand("   ")).toThrow("--vibe-command is empty");
  });
});

describe("modelLimits", () => {
  it("takes the flags over the environment over the defaults", () => {
    expect(modelLimits({})).toEqual({ requestTimeoutMs: 120_000, maxTurns: 30, maxRetries: 2 });
    const env = { HARNESS_DEMO_MODEL_TIMEOUT: "0.3", HARNESS_DEMO_MAX_TURNS: "5" };
    expect(modelLimits(env)).toMatchObject({ requestTimeoutMs: 300, maxTurns: 5 });
    expect(modelLimits(env, { timeoutSeconds: "86400", maxTurns: "10000" })).toMatchObject({
      requestTimeoutMs: 86_400_000,
      maxTurns: 10_000,
    });
  });

  it("refuses a timeout that a Node timer cannot hold (over 2^31-1 ms) or that rounds to 0 ms", () => {
    for (const seconds of ["3000000", "1e9", "0.0004", "0.05", "0", "-1", "Infinity"]) {
      expect(() => modelLimits({}, { timeoutSeconds: seconds }), seconds).toThrow(
        `--model-timeout must be a number of seconds from 0.1 to 86400 (24 h), not '${seconds}'`,
      );
      expect(() => modelLimits({ HARNESS_DEMO_MODEL_TIMEOUT: seconds }), seconds).toThrow(
        `HARNESS_DEMO_MODEL_TIMEOUT must be a number of seconds from 0.1 to 86400 (24 h), not '${seconds}'`,
      );
    }
    expect(() => modelLimits({}, { timeoutSeconds: "3000000" })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("refuses a turn limit that is not a whole number from 1 to 10000", () => {
    for (const turns of ["0", "2.5", "1e300", "10001"]) {
      expect(() => modelLimits({}, { maxTurns: turns }), turns).toThrow(
        `--max-turns must be a whole number from 1 to 10000, not '${turns}'`,
      );
      expect(() => modelLimits({ HARNESS_DEMO_MAX_TURNS: turns }), turns).toThrow(
        `HARNESS_DEMO_MAX_TURNS must be a whole number from 1 to 10000, not '${turns}'`,
      );
    }
  });
});
