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
});
