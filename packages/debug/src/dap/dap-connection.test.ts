import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { DapConnection, DapRequestError } from "./dap-connection.js";
import { encodeFrame, FrameParser } from "./framing.js";

function pair() {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const connection = new DapConnection(toClient, fromClient);
  const parser = new FrameParser();
  const sent: Array<Record<string, unknown>> = [];
  fromClient.on("data", (chunk: Buffer) =>
    sent.push(...(parser.push(chunk) as Array<Record<string, unknown>>)),
  );
  return { connection, sent, reply: (message: unknown) => toClient.write(encodeFrame(message)), toClient };
}

describe("DapConnection", () => {
  it("matches responses to requests and turns a refusal into a readable error", async () => {
    const { connection, sent, reply } = pair();
    const ok = connection.request("threads");
    const refused = connection.request("evaluate", { expression: "x" });
    await new Promise((resolve) => setImmediate(resolve));
    const [threads, evaluate] = sent as Array<{ seq: number; command: string }>;
    reply({
      seq: 1,
      type: "response",
      request_seq: evaluate!.seq,
      command: "evaluate",
      success: false,
      body: { error: { id: 1, format: "name '{name}' is not defined", variables: { name: "x" } } },
    });
    reply({
      seq: 2,
      type: "response",
      request_seq: threads!.seq,
      command: "threads",
      success: true,
      body: { threads: [] },
    });
    await expect(ok).resolves.toMatchObject({ body: { threads: [] } });
    await expect(refused).rejects.toThrow("name 'x' is not defined");
  });

  it("refuses reverse requests so the adapter never waits on us", async () => {
    const { sent, reply } = pair();
    reply({ seq: 9, type: "request", command: "runInTerminal", arguments: { args: ["x"] } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent[0]).toMatchObject({
      type: "response",
      request_seq: 9,
      command: "runInTerminal",
      success: false,
    });
  });

  it("fails pending requests when the adapter goes away", async () => {
    const { connection, toClient } = pair();
    const pending = connection.request("continue", { threadId: 1 });
    toClient.destroy();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DapRequestError);
    expect((error as DapRequestError).kind).toBe("closed");
    expect(connection.closed).toContain("closed the connection");
  });

  // No adapter on this machine declares `supportsCancelRequest` (lldb-dap 19, debugpy 1.6, delve
  // 1.20): the `cancel` sent for one that does is seen on the wire of a stream pair.
  it("gives up a request when its signal aborts: not sent if not sent yet, else a cancel for an adapter that supports it", async () => {
    const { connection, sent, reply } = pair();
    const early = new AbortController();
    early.abort();
    const notSent = connection.request("scopes", { frameId: 1 }, 10_000, { signal: early.signal });
    await expect(notSent).rejects.toMatchObject({ kind: "cancelled" });

    const withCancel = new AbortController();
    const given = connection.request("variables", { variablesReference: 1 }, 10_000, {
      signal: withCancel.signal,
      cancel: true,
    });
    const plain = new AbortController();
    const dropped = connection.request("variables", { variablesReference: 2 }, 10_000, {
      signal: plain.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    withCancel.abort();
    plain.abort();
    await expect(given).rejects.toMatchObject({ kind: "cancelled" });
    await expect(dropped).rejects.toMatchObject({ kind: "cancelled" });
    await new Promise((resolve) => setImmediate(resolve));
    const [first, second, cancel] = sent as Array<{ seq: number; command: string; arguments?: unknown }>;
    expect([first?.command, second?.command]).toEqual(["variables", "variables"]);
    // One cancel, for the request whose adapter supports it; none for the one never sent.
    expect(sent).toHaveLength(3);
    expect(cancel).toMatchObject({ command: "cancel", arguments: { requestId: first!.seq } });
    // Their late answers are dropped; the connection goes on.
    reply({
      seq: 1,
      type: "response",
      request_seq: first!.seq,
      command: "variables",
      success: true,
      body: {},
    });
    const next = connection.request("threads");
    await new Promise((resolve) => setImmediate(resolve));
    const threads = sent[3] as { seq: number };
    reply({
      seq: 2,
      type: "response",
      request_seq: threads.seq,
      command: "threads",
      success: true,
      body: { threads: [] },
    });
    await expect(next).resolves.toMatchObject({ body: { threads: [] } });
  });
});
