import { describe, expect, it } from "vitest";
import { LateOutput } from "./late-output.js";

describe("LateOutput", () => {
  it("keeps output up to its bound, cuts the stream that crosses it and counts the rest", () => {
    const late = new LateOutput(10);
    expect(late.take()).toBeUndefined();
    late.add({ type: "stream", name: "stdout", text: "12345" });
    late.add({ type: "stream", name: "stdout", text: "6789abcdef" });
    late.add({ type: "error", ename: "Error", evalue: "boom", traceback: [] });
    expect(late.take()).toEqual({
      type: "late",
      outputs: [
        { type: "stream", name: "stdout", text: "12345" },
        { type: "stream", name: "stdout", text: "6789a" },
      ],
      left: { outputs: 2, chars: 9 },
    });
    expect(late.take()).toBeUndefined();
  });

  it("counts a kernel's omitted output with what is left out, never keeping one (a timer past the limits every turn)", () => {
    const late = new LateOutput(10);
    late.add({ type: "stream", name: "stdout", text: "start\n" });
    for (let i = 0; i < 100_000; i++) late.add({ type: "omitted", chars: 100_001, lines: 1 });
    late.add({ type: "omitted", chars: 0, lines: 0, images: 2 });
    expect(late.take()).toEqual({
      type: "late",
      outputs: [{ type: "stream", name: "stdout", text: "start\n" }],
      left: { outputs: 100_002, chars: 100_000 * 100_001 },
    });
  });

  it("drops what came before a clear, so a thread clearing and printing keeps its last print", () => {
    const late = new LateOutput(10);
    for (let i = 0; i < 100_000; i++) {
      late.add({ type: "clear" });
      late.add({ type: "stream", name: "stdout", text: `${i}\n` });
    }
    expect(late.take()).toEqual({
      type: "late",
      outputs: [{ type: "stream", name: "stdout", text: "99999\n" }],
      left: { outputs: 0, chars: 0 },
    });
  });

  it("keeps at most maxOutputs outputs, empty ones too, and counts the rest", () => {
    const late = new LateOutput(10_000, 3);
    for (let i = 0; i < 1000; i++) late.add({ type: "stream", name: "stdout", text: "" });
    late.add({ type: "stream", name: "stdout", text: "ab" });
    const kept = late.take();
    expect(kept?.outputs).toHaveLength(3);
    expect(kept?.left).toEqual({ outputs: 998, chars: 997 + 2 });
  });
});
