import { Writable } from "node:stream";
import type { NotificationMessage } from "vscode-jsonrpc/node";
import { describe, expect, it } from "vitest";
import { SingleWriteMessageWriter } from "./single-write-writer.js";

const note = (method: string, params?: object): NotificationMessage => ({
  jsonrpc: "2.0",
  method,
  ...(params ? { params } : {}),
});

describe("SingleWriteMessageWriter", () => {
  it("writes header and body as one chunk, with the body's length in bytes", async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const writer = new SingleWriteMessageWriter(sink);
    await writer.write(note("note", { text: "héllo" }));
    await writer.write(note("second"));
    expect(chunks).toHaveLength(2);
    const body = '{"jsonrpc":"2.0","method":"note","params":{"text":"héllo"}}';
    expect(chunks[0]!.toString("utf8")).toBe(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect(chunks[1]!.toString("utf8")).toContain('"method":"second"');
  });

  it("rejects and reports when the stream fails", async () => {
    const sink = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error("EPIPE"));
      },
    });
    sink.on("error", () => undefined);
    const writer = new SingleWriteMessageWriter(sink);
    const errors: unknown[] = [];
    writer.onError((event) => errors.push(event));
    await expect(writer.write(note("x"))).rejects.toThrow("EPIPE");
    expect(errors.length).toBeGreaterThan(0);
  });
});
