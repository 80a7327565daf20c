import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from "node:http";
import { request as httpsRequest, Agent as HttpsAgent } from "node:https";
import { Readable } from "node:stream";

/**
 * A `fetch` for the model SDKs on node:http with connections that are never pooled: each request
 * has its own socket, closed with its response or destroyed when its signal aborts. Node's global
 * fetch keeps a shared pool and even reconnects after an abort, which would leave sockets open
 * after a worker is killed. Enough of fetch for JSON requests (string or byte bodies).
 */
export function createNodeHttpFetch(): typeof fetch {
  const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = new Headers(init.headers);
      // node:http does not decompress; ask for the body as is.
      headers.set("accept-encoding", "identity");
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
        reject(new TypeError("this fetch sends string or byte bodies only"));
        return;
      }
      const secure = url.protocol === "https:";
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: init.method ?? "GET",
          headers: Object.fromEntries(headers),
          agent: secure ? agents.https : agents.http,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (response) => resolve(toResponse(response)),
      );
      request.on("error", reject);
      request.end(body ?? undefined);
    });
}

function toResponse(response: IncomingMessage): Response {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const status = response.statusCode ?? 500;
  const empty = status === 204 || status === 205 || status === 304;
  if (empty) response.resume();
  return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
    status,
    statusText: response.statusMessage ?? "",
    headers,
  });
}
