// A model server on 127.0.0.1 that answers each request with the next canned reply, as is: the
// odd replies compatible servers and proxies really send (object arguments, HTML, empty answers)
// and a hang. NOT a model; the tests that use it say so.
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One reply: a JSON body (200, application/json), raw text with a content type, or never. */
export type CannedReply = { json: unknown } | { raw: string; contentType: string } | { hang: true };

/** The running server. */
export interface CannedModelServer {
  /** `http://127.0.0.1:PORT/v1` for the OpenAI SDK. */
  readonly openAiBaseUrl: string;
  /** `http://127.0.0.1:PORT` for the Anthropic SDK. */
  readonly anthropicBaseUrl: string;
  /** The bodies of the requests so far, parsed. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Starts a server answering request i with `replies[i]` (the last one once they run out). */
export async function startCannedModelServer(replies: readonly CannedReply[]): Promise<CannedModelServer> {
  const requests: Record<string, unknown>[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { hang: true };
      if ("hang" in reply) {
        held.push(response);
        return;
      }
      if ("raw" in reply) {
        response.writeHead(200, { "content-type": reply.contentType }).end(reply.raw);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply.json));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    openAiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An OpenAI chat completion with this message and finish reason. */
export function chatCompletion(message: Record<string, unknown>, finish: string): { json: unknown } {
  return {
    json: {
      id: "chatcmpl-canned",
      object: "chat.completion",
      created: 1,
      model: "canned",
      choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finish }],
    },
  };
}

/** An OpenAI completion calling `read` with these arguments (text, object, or left out). */
export function readCall(args: unknown, id = "c1"): Record<string, unknown> {
  return { id, type: "function", function: { name: "read", ...(args === undefined ? {} : { arguments: args }) } };
}
