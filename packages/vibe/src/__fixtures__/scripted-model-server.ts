// A real HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions API and the Anthropic
// Messages API well enough for the official SDKs, and plays a scripted conversation. Loopback
// only: the tests never reach a real model API.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { EventEmitter, once } from "node:events";

export type Api = "openai" | "anthropic";

/** What the server answers to one request. */
export type Step =
  | { text: string }
  | { toolCalls: { name: string; args: Record<string, unknown> }[]; text?: string }
  /** `code`: the error's code in an OpenAI-style body (`insufficient_quota`); null without. */
  | { status: number; message: string; code?: string; headers?: Record<string, string> }
  /** Never answers: holds the request until the client goes away. */
  | { hang: true }
  /** Answers 200 with this body as is (an odd reply: HTML from a proxy, a hand-made completion). */
  | { raw: string; contentType?: string };

export interface RecordedRequest {
  readonly api: Api;
  /** The request's headers (`authorization` carries the key the SDK sent). */
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  readonly index: number;
}

export type Script = (request: RecordedRequest) => Step | Promise<Step>;

export interface ScriptedModelServer {
  /** Base URL for the OpenAI SDK (`…/v1`). */
  readonly openAiBaseUrl: string;
  /** Base URL for the Anthropic SDK (it appends `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  readonly requests: RecordedRequest[];
  /** Emits `request` (RecordedRequest) and `client-gone` (index) when a held request's client leaves. */
  readonly events: EventEmitter;
  openSockets(): number;
  /** Resolves once no socket is open, at most `ms`; false when some still are. */
  socketsClosed(ms?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startScriptedModelServer(script: Script): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const events = new EventEmitter();
  const sockets = new Set<Socket>();
  let counter = 0;

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      events.emit("socket-closed");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const api: Api | undefined = req.url?.endsWith("/chat/completions")
      ? "openai"
      : req.url?.endsWith("/messages")
        ? "anthropic"
        : undefined;
    if (!api) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    const recorded: RecordedRequest = {
      api,
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
      index: counter++,
    };
    requests.push(recorded);
    events.emit("request", recorded);
    let step: Step;
    try {
      step = await script(recorded);
    } catch (error) {
      step = { status: 500, message: `script failed: ${String(error)}` };
    }
    if ("hang" in step) {
      res.on("close", () => events.emit("client-gone", recorded.index));
      return;
    }
    if ("raw" in step) {
      res.writeHead(200, { "content-type": step.contentType ?? "application/json" }).end(step.raw);
      return;
    }
    if ("status" in step) {
      const body = api === "openai"
        ? { error: { message: step.message, type: "server_error", code: step.code ?? null, param: null } }
        : { type: "error", error: { type: "api_error", message: step.message } };
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers }).end(JSON.stringify(body));
      return;
    }
    const model = String(recorded.body["model"]);
    const body = api === "openai" ? openAiReply(step, model, recorded.index) : anthropicReply(step, model, recorded.index);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    openAiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    events,
    openSockets: () => sockets.size,
    async socketsClosed(ms = 5000) {
      if (sockets.size === 0) return true;
      return await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), ms);
        const check = (): void => {
          if (sockets.size === 0) done(true);
        };
        const done = (value: boolean): void => {
          clearTimeout(timer);
          events.off("socket-closed", check);
          resolve(value);
        };
        events.on("socket-closed", check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function openAiReply(step: Exclude<Step, { hang: true } | { status: number } | { raw: string }>, model: string, index: number): unknown {
  const calls = "toolCalls" in step ? step.toolCalls : [];
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
        logprobs: null,
        message: {
          role: "assistant",
          content: step.text ?? null,
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call, i) => ({
                  id: `call_${index}_${i}`,
                  type: "function",
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function anthropicReply(step: Exclude<Step, { hang: true } | { status: number } | { raw: string }>, model: string, index: number): unknown {
  const calls = "toolCalls" in step ? step.toolCalls : [];
  const content: unknown[] = [];
  if (step.text !== undefined) content.push({ type: "text", text: step.text });
  calls.forEach((call, i) => content.push({ type: "tool_use", id: `toolu_${index}_${i}`, name: call.name, input: call.args }));
  return {
    id: `msg_${index}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}
