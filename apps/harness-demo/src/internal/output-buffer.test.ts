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
    expect(text).toMatch(/\n… \d+ lines \(\d+ characters\) left out …\n/);
    expect(text.length).toBeLessThan(30_000);
  });

  it("counts every line left out, also those of the middle that was not kept", () => {
    const buffer = new OutputBuffer();
    const all = Array.from({ length: 200_000 }, (_, index) => `${index + 1}\n`).join("");
    buffer.push(Buffer.from(all));
    const text = buffer.render();
    const shown = text.split("\n").filter((line) => /^\d+$/.test(line));
    expect(shown).toHaveLength(200);
    const leftOut = all.length - shown.reduce((sum, line) => sum + line.length + 1, 0);
    expect(text).toContain(`\n80\n… 199800 lines (${leftOut} characters) left out …\n199881\n`);
  });

  it("decodes a character split between two reads of one stream whole", () => {
    const buffer = new OutputBuffer();
    const bytes = Buffer.from("start 日本語 end", "utf8");
    buffer.push(bytes.subarray(0, 8), "stdout");
    buffer.push(Buffer.from("!"), "stderr");
    buffer.push(bytes.subarray(8), "stdout");
    expect(buffer.render()).toBe("start !日本語 end");
  });

  it("knows when nothing was written", () => {
    expect(new OutputBuffer().empty).toBe(true);
  });
});
