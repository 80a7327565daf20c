import { EventEmitter } from "node:events";
import type { CancellationToken, MessageConnection } from "vscode-jsonrpc/node";
import { describe, expect, it } from "vitest";
import { boundedRequest } from "./bounded-request.js";

/** A connection whose requests never answer, recording the cancellations asked for. */
function silentConnection(): { connection: MessageConnection; cancelled: string[] } {
  const cancelled: string[] = [];
  const connection = {
    sendRequest: (method: string, _params: unknown, token: CancellationToken) => {
      token.onCancellationRequested(() => cancelled.push(method));
      return new Promise(() => undefined);
    },
  } as unknown as MessageConnection;
  return { connection, cancelled };
}

describe("boundedRequest", () => {
  const bounds = (signal: AbortSignal, open: boolean) => ({
    timeoutMs: 60_000,
    signal,
    events: new EventEmitter(),
    crashedError: () => new Error("crashed"),
    command: "server",
    open: () => open,
  });

  it("cancels an aborted request on an open connection", async () => {
    const { connection, cancelled } = silentConnection();
    const abort = new AbortController();
    const request = boundedRequest(connection, "textDocument/hover", {}, bounds(abort.signal, true));
    abort.abort();
    await expect(request).rejects.toMatchObject({ code: "CANCELLED" });
    expect(cancelled).toEqual(["textDocument/hover"]);
  });

  it("sends no cancellation once the connection closed (it would only log an error)", async () => {
    const { connection, cancelled } = silentConnection();
    const abort = new AbortController();
    const request = boundedRequest(connection, "textDocument/hover", {}, bounds(abort.signal, false));
    abort.abort();
    await expect(request).rejects.toMatchObject({ code: "CANCELLED" });
    expect(cancelled).toEqual([]);
  });

  it("fails at once when the server is stopped (the run's end, a reload), without a cancellation", async () => {
    const { connection, cancelled } = silentConnection();
    const events = new EventEmitter();
    const request = boundedRequest(
      connection,
      "textDocument/definition",
      {},
      {
        ...bounds(new AbortController().signal, true),
        events,
        stoppedError: () => new Error("stopped before textDocument/definition was answered"),
      },
    );
    events.emit("stop");
    await expect(request).rejects.toThrow("stopped before textDocument/definition was answered");
    expect(cancelled).toEqual([]);
    expect(events.listenerCount("stop") + events.listenerCount("crash")).toBe(0);
  });
});
