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
});
