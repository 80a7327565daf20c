import { describe, expect, it, vi } from "vitest";
import { encodeFrame, FrameParser } from "./framing.js";

describe("DAP framing", () => {
  it("reassembles messages split across chunks and several in one chunk", () => {
    const parser = new FrameParser();
    const one = encodeFrame({ seq: 1, type: "event", event: "initialized" });
    const two = encodeFrame({ seq: 2, type: "event", event: "output", body: { output: "héllo ✓\n" } });
    const all = Buffer.concat([one, two]);
    expect(parser.push(all.subarray(0, 10))).toEqual([]);
    const messages = [
      ...parser.push(all.subarray(10, one.length + 5)),
      ...parser.push(all.subarray(one.length + 5)),
    ];
    expect(messages).toEqual([
      { seq: 1, type: "event", event: "initialized" },
      { seq: 2, type: "event", event: "output", body: { output: "héllo ✓\n" } },
    ]);
  });

  it("counts the length in bytes, not characters", () => {
    const frame = encodeFrame({ text: "ü" }).toString("latin1");
    expect(
      frame.startsWith(`Content-Length: ${Buffer.byteLength(JSON.stringify({ text: "ü" }))}\r\n\r\n`),
    ).toBe(true);
  });

  it("skips a malformed body and keeps reading", () => {
    const parser = new FrameParser();
    const bad = Buffer.from("Content-Length: 3\r\n\r\n{x}");
    const good = encodeFrame({ ok: true });
    expect(parser.push(Buffer.concat([bad, good]))).toEqual([{ ok: true }]);
  });

  it("reads a large message in small chunks copying it once, not once per chunk", () => {
    // Joining everything buffered at every chunk copied 40 MB in 64 KB chunks 640 times over
    // (14 s here, the event loop blocked throughout); one join when the body is complete is ms.
    // Counted as bytes copied by Buffer.concat, not timed.
    const text = "x".repeat(40 * 1024 * 1024);
    const frame = Buffer.concat([
      encodeFrame({ seq: 1, type: "event", event: "output", body: { text } }),
      encodeFrame({ seq: 2 }),
    ]);
    const parser = new FrameParser();
    const messages: unknown[] = [];
    const concat = vi.spyOn(Buffer, "concat");
    let copied = 0;
    try {
      for (let at = 0; at < frame.length; at += 65_536)
        messages.push(...parser.push(frame.subarray(at, at + 65_536)));
      for (const result of concat.mock.results) copied += (result.value as Buffer).length;
    } finally {
      concat.mockRestore();
    }
    expect(messages).toHaveLength(2);
    expect((messages[0] as { body: { text: string } }).body.text.length).toBe(text.length);
    expect(messages[1]).toEqual({ seq: 2 });
    expect(copied).toBeLessThanOrEqual(2 * frame.length);
  });
});
