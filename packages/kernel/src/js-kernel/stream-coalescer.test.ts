import { describe, expect, it } from "vitest";
import { StreamCoalescer, type StreamChunk } from "./stream-coalescer.js";

describe("StreamCoalescer", () => {
  const collect = () => {
    const sent: [string, StreamChunk][] = [];
    const coalescer = new StreamCoalescer<string>((parent, chunk) => sent.push([parent, chunk]));
    return { sent, coalescer };
  };

  it("joins consecutive writes to one stream of one cell into one message", async () => {
    const { sent, coalescer } = collect();
    for (let i = 0; i < 1000; i++) coalescer.write("cell-1", { name: "stdout", text: `${i}\n` });
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.[1].text.split("\n")).toHaveLength(1001);
  });

  it("keeps the order across streams and cells, and flushes on demand", () => {
    const { sent, coalescer } = collect();
    coalescer.write("cell-1", { name: "stdout", text: "a" });
    coalescer.write("cell-1", { name: "stdout", text: "b" });
    coalescer.write("cell-1", { name: "stderr", text: "c" });
    coalescer.write("cell-2", { name: "stderr", text: "d" });
    coalescer.flush();
    coalescer.flush();
    expect(sent).toEqual([
      ["cell-1", { name: "stdout", text: "ab" }],
      ["cell-1", { name: "stderr", text: "c" }],
      ["cell-2", { name: "stderr", text: "d" }],
    ]);
  });
});
