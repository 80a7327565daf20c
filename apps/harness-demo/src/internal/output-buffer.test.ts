import { describe, expect, it } from "vitest";
import { OutputBuffer } from "./output-buffer.js";

describe("OutputBuffer", () => {
  it("returns short output whole", () => {
    const buffer = new OutputBuffer();
    buffer.push("a\n");
    buffer.push(Buffer.from("b\n"));
    expect(buffer.render()).toBe("a\nb");
  });

  it("keeps the start and the end of huge output and says what was not kept", () => {
    const buffer = new OutputBuffer();
    buffer.push("first line\n");
    for (let index = 0; index < 2000; index++) buffer.push(`${"x".repeat(500)}\n`);
    buffer.push("last line\n");
    const text = buffer.render();
    expect(text.startsWith("first line\n")).toBe(true);
    expect(text.endsWith("last line")).toBe(true);
    expect(text).toMatch(/\n… \d+ lines and about \d+ characters not kept left out …\n/);
    expect(text.length).toBeLessThan(30_000);
  });

  it("knows when nothing was written", () => {
    expect(new OutputBuffer().empty).toBe(true);
  });
});
