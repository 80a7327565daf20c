// The model backends against replies a compatible server may really send but the API does not
// describe (object arguments, calls without `type`, HTML from a proxy, empty or cut replies), and a
// server that hangs. A scripted server on 127.0.0.1; no real model API.
import { afterEach, describe, expect, it } from "vitest";
import { ToolsError } from "@tools/registry";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type Script,
  type ScriptedModelServer,
} from "../__fixtures__/scripted-model-server.js";
import { createAnthropicBackend } from "./anthropic-backend.js";
import type { ModelBackendOptions } from "./model-backend-options.js";
import { emptyReplyNudge } from "./model-reply.js";
import { createOpenAiBackend } from "./openai-backend.js";
import type { WorkerTask } from "./worker-backend.js";

const models = { fast: "loopback-fast", good: "loopback-good" };

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Recorded {
  calls: { tool: string; args: unknown }[];
  /** The model's id of each call the toolbox ran, as the backend gave it. */
  callIds: (string | undefined)[];
  refused: { tool: string; args: string; error: string }[];
  progress: string[];
}

/** Runs one worker attempt of `api`'s backend against `script`; what the toolbox saw is recorded. */
async function perform(
  api: "openai" | "anthropic",
  script: Script,
  extra: Partial<ModelBackendOptions> = {},
): Promise<{ answer: Promise<string>; seen: Recorded }> {
  server = await startScriptedModelServer(script);
  const options: ModelBackendOptions = {
    baseURL: api === "openai" ? server.openAiBaseUrl : server.anthropicBaseUrl,
    apiKey: "loopback-key",
    models,
    maxRetries: 0,
    ...extra,
  };
  const backend = api === "openai" ? createOpenAiBackend(options) : createAnthropicBackend(options);
  const seen: Recorded = { calls: [], callIds: [], refused: [], progress: [] };
  const task: WorkerTask = {
    workerId: "w1",
    label: "odd",
    tier: "fast",
    brief: "do it",
    workingDirectory: process.cwd(),
    signal: new AbortController().signal,
    toolbox: {
      openAiTools: () => [],
      anthropicTools: () => [],
      call: (tool, args, callId) => {
        seen.calls.push({ tool, args });
        seen.callIds.push(callId);
        return Promise.resolve({ text: `ran ${tool}`, isError: false });
      },
      refused: (tool, args, error) => seen.refused.push({ tool, args, error }),
    },
    progress: (message) => seen.progress.push(message),
  };
  return { answer: backend.perform(task), seen };
}

/** An OpenAI-style completion with this message, as raw JSON. */
function completion(message: Record<string, unknown>, finish: string | null): { raw: string } {
  return {
    raw: JSON.stringify({
      id: "x",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
    }),
  };
}

/** An Anthropic-style message with these blocks, as raw JSON. */
function anthropicMessage(content: unknown[], stop: string): { raw: string } {
  return {
    raw: JSON.stringify({
      id: "m",
      type: "message",
      role: "assistant",
      model: "m",
      content,
      stop_reason: stop,
    }),
  };
}

interface SentMessage {
  role: string;
  content: unknown;
  tool_calls?: unknown;
}

function sentMessages(request: RecordedRequest | undefined): SentMessage[] {
  return (request?.body["messages"] ?? []) as SentMessage[];
}

function toolMessages(request: RecordedRequest | undefined): SentMessage[] {
  return sentMessages(request).filter((message) => message.role === "tool");
}

async function failure(answer: Promise<string>): Promise<ToolsError> {
  const error: unknown = await answer.then(
    (text) => new Error(`expected a failure, got the answer ${JSON.stringify(text)}`),
    (caught: unknown) => caught,
  );
  if (!ToolsError.isInstance(error)) throw error;
  return error;
}

describe("the model's id of each call", () => {
  it.each(["openai", "anthropic"] as const)(
    "%s: reaches the toolbox with the call, as the id the reply is sent back under",
    async (api) => {
      const { answer, seen } = await perform(api, (request) =>
        request.index === 0
          ? {
              toolCalls: [
                { name: "read", args: { path: "a" } },
                { name: "read", args: { path: "b" } },
              ],
            }
          : { text: "done" },
      );
      expect(await answer).toBe("done");
      // The scripted server numbers its ids by request and call, as the two APIs' ids look.
      expect(seen.callIds).toEqual(api === "openai" ? ["call_0_0", "call_0_1"] : ["toolu_0_0", "toolu_0_1"]);
      const replies = server!.requests[1]?.body["messages"] as Record<string, unknown>[];
      const sentBack = JSON.stringify(replies);
      for (const id of seen.callIds) expect(sentBack).toContain(id!);
    },
  );
});

describe("OpenAI-compatible tool calls in the shapes compatible servers send", () => {
  it("takes arguments sent as an object, and calls without a type that name a function", async () => {
    const { answer, seen } = await perform("openai", (request) =>
      request.index === 0
        ? completion(
            {
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "read", arguments: { path: "README.md" } } },
                { id: "c2", function: { name: "grep", arguments: '{"pattern":"x"}' } },
              ],
            },
            "tool_calls",
          )
        : { text: "done" },
    );
    expect(await answer).toBe("done");
    expect(seen.calls).toEqual([
      { tool: "read", args: { path: "README.md" } },
      { tool: "grep", args: { pattern: "x" } },
    ]);
    // The history sent back carries the arguments as JSON text, as the API has them.
    const assistant = sentMessages(server!.requests[1]).find((message) => message.role === "assistant");
    expect(assistant?.tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } },
      { id: "c2", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
    ]);
  });

  it("sends missing or broken arguments back as INVALID_ARGUMENTS and goes on; the host is told", async () => {
    const { answer, seen } = await perform("openai", (request) =>
      request.index === 0
        ? completion(
            {
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "read" } },
                { id: "c2", type: "function", function: { name: "read", arguments: '{"path": "a' } },
              ],
            },
            "tool_calls",
          )
        : { text: "done" },
    );
    expect(await answer).toBe("done");
    expect(seen.calls).toEqual([]);
    const sent = toolMessages(server!.requests[1]).map((message) => message.content);
    expect(sent[0]).toContain("error (INVALID_ARGUMENTS): the call carried no arguments");
    expect(sent[1]).toContain("error (INVALID_ARGUMENTS): the arguments are not valid JSON");
    expect(seen.refused.map(({ tool, args }) => ({ tool, args }))).toEqual([
      { tool: "read", args: "(no arguments)" },
      { tool: "read", args: '{"path": "a' },
    ]);
    expect(seen.refused[1]?.error).toBe(sent[1]);
  });
});

describe("a 200 reply that is not a completion or message says which server answered what", () => {
  it.each(["openai", "anthropic"] as const)("%s: a proxy's HTML page", async (api) => {
    const { answer } = await perform(api, () => ({
      raw: "<html>proxy login</html>",
      contentType: "text/html",
    }));
    const error = await failure(answer);
    // Another service answered: the configuration's fault, which no rerun mends.
    expect(error.code).toBe("INVALID_BACKEND_CONFIG");
    expect(error.message).toContain(`the server at http://127.0.0.1:`);
    expect(error.message).toContain("answered the request for loopback-fast with status 200 (text/html)");
    expect(error.message).toContain(api === "openai" ? "is not a chat completion" : "is not a message");
    expect(error.message).toContain("the reply starts: <html>proxy login</html>");
  });

  it.each(["openai", "anthropic"] as const)("%s: an error body with status 200", async (api) => {
    const { answer } = await perform(api, () => ({ raw: '{"error":{"message":"bad"}}' }));
    const error = await failure(answer);
    expect(error.code).toBe("WORKER_FAILED");
    expect(error.message).toContain("with status 200 (application/json)");
    expect(error.message).toContain('it carried the error "bad"');
  });

  it.each([
    ["openai", '{"object":"chat.completion","choices":[]}'],
    ["anthropic", '{"type":"message","role":"assistant"}'],
  ] as const)(
    "%s: an API-shaped JSON reply with nothing in it is the server's slip, not the configuration's",
    async (api, raw) => {
      const { answer } = await perform(api, () => ({ raw }));
      const error = await failure(answer);
      expect(error.code).toBe("WORKER_FAILED");
      expect(error.message).toContain("with status 200 (application/json)");
      expect(error.message).toContain(`the reply starts: ${raw}`);
      expect(error.message).not.toContain("Check that the backend's baseURL");
    },
  );
});

describe("no answer is never taken for one", () => {
  it.each([
    [
      "a reply cut at the token limit",
      completion({ content: "The fix is" }, "length"),
      'cut at its token limit (finish_reason "length")',
    ],
    [
      "a filtered reply",
      completion({ content: "" }, "content_filter"),
      "content filter stopped the reply of loopback-fast",
    ],
    [
      "tool_calls with no call",
      completion({ content: "", tool_calls: [{ id: "c1", type: "function" }] }, "tool_calls"),
      'finish_reason "tool_calls") but sent no call naming a function',
    ],
    [
      "a refusal",
      completion({ content: null, refusal: "I can't help with that" }, "stop"),
      "loopback-fast refused: I can't help with that",
    ],
  ])("openai: %s fails the worker", async (_name, step, expected) => {
    const { answer } = await perform("openai", () => step);
    const error = await failure(answer);
    expect(error.code).toBe("WORKER_FAILED");
    expect(error.message).toContain(expected);
    expect(error.message).toContain("(after 1 model turn, no tool calls)");
  });

  it.each([
    [
      "a reply cut at max_tokens",
      anthropicMessage([{ type: "text", text: "The fix is" }], "max_tokens"),
      'cut at its token limit (stop_reason "max_tokens", max_tokens 8192) before it was done; it had written: The fix is',
    ],
    ["a refusal", anthropicMessage([], "refusal"), 'refused to go on (stop_reason "refusal")'],
  ])("anthropic: %s fails the worker", async (_name, step, expected) => {
    const { answer } = await perform("anthropic", () => step);
    const error = await failure(answer);
    expect(error.code).toBe("WORKER_FAILED");
    expect(error.message).toContain(expected);
  });

  it("anthropic: a tool_use cut at max_tokens is not run; the model hears why and goes on", async () => {
    const { answer, seen } = await perform("anthropic", (request) =>
      request.index === 0
        ? anthropicMessage(
            [
              { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
              { type: "tool_use", id: "t2", name: "write", input: { path: "b", content: "hal" } },
            ],
            "max_tokens",
          )
        : { text: "done" },
    );
    expect(await answer).toBe("done");
    expect(seen.calls).toEqual([{ tool: "read", args: { path: "a" } }]);
    expect(seen.refused[0]?.tool).toBe("write");
    const results = sentMessages(server!.requests[1]).at(-1)?.content as {
      content: string;
      is_error: boolean;
    }[];
    expect(results[1]?.is_error).toBe(true);
    expect(results[1]?.content).toContain("error (INCOMPLETE_CALL): your reply was cut at the token limit");
  });
});

/** The text of the last user message sent: a string, or its last text block. */
function lastUserText(request: RecordedRequest | undefined): unknown {
  const content = sentMessages(request)
    .filter((message) => message.role === "user")
    .at(-1)?.content;
  if (!Array.isArray(content)) return content;
  return (content.at(-1) as { text?: unknown } | undefined)?.text;
}

describe("an empty reply", () => {
  const emptyStep = { text: "" };
  const reason = {
    openai: 'finish_reason "stop", no text and no tool calls',
    anthropic: 'stop_reason "end_turn", no text and no tool use',
  };

  it.each(["openai", "anthropic"] as const)(
    "%s: the model is told once that its reply was empty, and its next answer is the worker's",
    async (api) => {
      const { answer, seen } = await perform(api, (request) =>
        request.index === 0 ? emptyStep : { text: "the answer" },
      );
      expect(await answer).toBe("the answer");
      const second = server!.requests[1];
      // The empty turn is not sent back (the APIs refuse an empty assistant turn); the nudge is.
      expect(sentMessages(second).filter((message) => message.role === "assistant")).toEqual([]);
      expect(lastUserText(second)).toBe(emptyReplyNudge);
      if (api === "anthropic") {
        expect(sentMessages(second)).toEqual([
          {
            role: "user",
            content: [
              { type: "text", text: "do it" },
              { type: "text", text: emptyReplyNudge },
            ],
          },
        ]);
      }
      expect(seen.progress).toContain(
        "turn 1: loopback-fast sent an empty reply; asking it once for its final answer",
      );
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: an empty reply to the nudge fails the worker, saying it was empty twice",
    async (api) => {
      const { answer } = await perform(api, () => emptyStep);
      const error = await failure(answer);
      expect(error.code).toBe("WORKER_FAILED");
      expect(error.message).toBe(
        `loopback-fast answered with an empty reply (${reason[api]}), also after it was told that its last reply was empty and asked for its final answer or a tool call (after 2 model turns, no tool calls)`,
      );
      expect(server!.requests).toHaveLength(2);
    },
  );

  it.each(["openai", "anthropic"] as const)(
    "%s: the nudge comes once per worker; it follows tool results, and a later empty reply fails",
    async (api) => {
      // Turns 1 and 3 call a tool, turns 2 and 4 are empty: the nudge goes after tool results.
      const { answer, seen } = await perform(api, (request) =>
        request.index % 2 === 0 ? { toolCalls: [{ name: "read", args: { path: "a" } }] } : emptyStep,
      );
      const error = await failure(answer);
      expect(error.message).toContain(
        `answered with an empty reply (${reason[api]}), again: after its empty reply at turn 2 it was told so and asked for its final answer once already (after 4 model turns, 2 tool calls (read ×2))`,
      );
      expect(seen.calls).toEqual([
        { tool: "read", args: { path: "a" } },
        { tool: "read", args: { path: "a" } },
      ]);
      expect(server!.requests).toHaveLength(4);
      expect(seen.progress).toContain(
        "turn 2: loopback-fast sent an empty reply; asking it once for its final answer",
      );
      // The history the APIs accept: the call, its result right after it, then the nudge (the
      // empty turn left out); Anthropic's in the same user turn as the tool_result block.
      const third = sentMessages(server!.requests[2]);
      if (api === "anthropic") {
        expect(third).toEqual([
          { role: "user", content: "do it" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_0_0", name: "read", input: { path: "a" } }],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_0_0", content: "ran read", is_error: false },
              { type: "text", text: emptyReplyNudge },
            ],
          },
        ]);
      } else {
        expect(third.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
        expect(third[3]).toMatchObject({ role: "tool", tool_call_id: "call_0_0", content: "ran read" });
        expect(third[4]).toEqual({ role: "user", content: emptyReplyNudge });
      }
    },
  );

  it("openai: with no turn left, an empty reply fails at once, saying why it was not asked again", async () => {
    const { answer } = await perform("openai", () => emptyStep, { maxTurns: 1 });
    const error = await failure(answer);
    expect(error.message).toContain("answered with an empty reply");
    expect(error.message).toContain("; no turn was left to ask it again (after 1 model turn, no tool calls)");
  });
});

describe("a rate limit's retry-after", () => {
  it.each(["openai", "anthropic"] as const)(
    "%s: is waited out before the retry, which then answers",
    async (api) => {
      const { answer, seen } = await perform(
        api,
        (request) =>
          request.index === 0
            ? { status: 429, message: "slow down", headers: { "retry-after": "1" } }
            : { text: "done" },
        { maxRetries: 1 },
      );
      expect(await answer).toBe("done");
      expect(server!.requests).toHaveLength(2);
      expect(seen.progress).toEqual([
        "turn 1: waiting for loopback-fast",
        "turn 1: loopback-fast: the server answered status 429; trying again in 1.0s, as it asked (try 2 of 2)",
        "turn 1: loopback-fast: retrying the request (try 2 of 2) after status 429",
      ]);
    },
  );
});

describe("a server that hangs", () => {
  it.each(["openai", "anthropic"] as const)(
    "%s: gives up after the request timeout, saying so while it waits and when it retries",
    async (api) => {
      const { answer, seen } = await perform(api, () => ({ hang: true }), {
        requestTimeoutMs: 400,
        maxRetries: 1,
      });
      const error = await failure(answer);
      // The server's failure, not the task's: vibe_wait says a rerun of the same brief may work.
      expect(error.code).toBe("MODEL_UNAVAILABLE");
      expect(error.message).toContain("failed: Request timed out. (400ms per try, at most 2 tries)");
      expect(seen.progress).toContain(
        "turn 1: loopback-fast: retrying the request (try 2 of 2) after no reply within 400ms",
      );
      expect(
        seen.progress.some((line) =>
          line.startsWith("turn 1: loopback-fast: still waiting for the reply after"),
        ),
      ).toBe(true);
      expect(server!.requests.length).toBe(2);
    },
  );
});

describe("the turn limit", () => {
  it.each(["openai", "anthropic"] as const)("%s: says what the worker did", async (api) => {
    const { answer } = await perform(api, () => ({ toolCalls: [{ name: "read", args: { path: "a" } }] }), {
      maxTurns: 2,
    });
    const error = await failure(answer);
    expect(error.code).toBe("TURN_LIMIT");
    expect(error.message).toContain(
      "worker 'odd' stopped after 2 model turns without a final answer (it did 2 model turns, 2 tool calls (read ×2)); re-brief it",
    );
    expect(error.data).toEqual({ maxTurns: 2, done: "2 model turns, 2 tool calls (read ×2)" });
  });
});
