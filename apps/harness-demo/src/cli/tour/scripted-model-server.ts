// The tour's scripted model: a real HTTP server on 127.0.0.1 that speaks the OpenAI-compatible
// Chat Completions API well enough for the official SDK, and plays a fixed script. It is NOT a
// model: the tour labels it as scripted everywhere it shows up.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A brief containing this marker is held: the server never answers (until the worker is killed). */
export const holdMarker = "[scripted: hold]";

/** The running scripted server. */
export interface ScriptedModelServer {
  /** The base URL for the OpenAI SDK (`http://127.0.0.1:PORT/v1`). */
  readonly baseUrl: string;
  /** Requests answered or held so far. */
  readonly requests: number;
  close(): Promise<void>;
}

interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
}

/** A message's text: a string, or the text parts of a content array. */
function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
          ? (part as { text: string }).text
          : "",
      )
      .join("");
  }
  return "";
}

/**
 * The script. First turn: one `read` call of the path named in the brief after "read ";
 * next turn (a tool result is there): a short answer quoting the result's first line.
 */
function reply(messages: readonly ChatMessage[], model: string, index: number): Record<string, unknown> {
  const brief = messageText(messages.find((message) => message.role === "user"));
  const toolResult = messages.find((message) => message.role === "tool");
  const message: Record<string, unknown> = { role: "assistant", content: null, refusal: null };
  let finish = "stop";
  if (toolResult === undefined) {
    const path = /read (\S+)/.exec(brief)?.[1] ?? "README.md";
    finish = "tool_calls";
    message["tool_calls"] = [
      {
        id: `call_${index}`,
        type: "function",
        function: { name: "read", arguments: JSON.stringify({ path, limit: 2 }) },
      },
    ];
  } else {
    const first = messageText(toolResult)
      .split("\n")
      .find((line) => line.trim() !== "");
    message["content"] = `[scripted model] I read it; its first line is: ${first ?? "(empty)"}`;
  }
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** Starts the scripted server on an ephemeral loopback port. */
export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  let requests = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (!request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `no route ${request.url ?? ""}` } }));
      return;
    }
    const index = requests++;
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      model?: string;
      messages?: ChatMessage[];
    };
    const messages = body.messages ?? [];
    const brief = messageText(messages.find((message) => message.role === "user"));
    if (brief.includes(holdMarker)) return; // held until the client goes away
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(reply(messages, body.model ?? "scripted", index)));
  };
  const server = createServer((request, response) => void handle(request, response));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
