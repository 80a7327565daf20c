import { describe, expect, it } from "vitest";
import { OutputBuffer } from "./output-buffer.js";

describe("OutputBuffer", () => {
  it("returns short output whole", () => {
    const buffer = new OutputBuffer();
    buffer.push("a\n");
    buffer.push(Buffer.from("b\n"));
    expect(buffer.render()).toBe("a\nb");
  });

  it("is not empty when all it got is the start of a character (a decoder held it back)", () => {
    const buffer = new OutputBuffer();
    expect(buffer.empty).toBe(true);
    // The first byte of "é", as `head -c 1` cuts it: shell said "(no output)".
    buffer.push(Buffer.from([0xc3]));
    expect(buffer.empty).toBe(false);
    expect(buffer.render()).toBe("\uFFFD");
  });

  it("shows binary data at the end of output too long to keep whole as a note, and the text after it", () => {
    const buffer = new OutputBuffer();
    for (let index = 0; index < 20_000; index++) buffer.push(`line ${index + 1} ${"x".repeat(30)}\n`);
    buffer.push(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x0a]));
    buffer.push("FAILED: 3 tests\n");
    const text = buffer.render();
    expect(text.startsWith("line 1 x")).toBe(true);
    expect(text).toMatch(/\n… \d+ lines \(\d+ characters\) left out …\n/);
    expect(text).toMatch(
      /\nline 20000 x+\n\(binary data, 12 characters: not shown; to look at it, pipe it through `od -c \| head` or `xxd \| head`\)\nFAILED: 3 tests$/,
    );
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

  it("shows the last line after a few very long lines", () => {
    const buffer = new OutputBuffer();
    for (let index = 0; index < 10; index++) buffer.push(`${"x".repeat(5_000)}\n`);
    buffer.push("FAIL: 3 tests failed\n");
    const text = buffer.render();
    expect(text.endsWith("\nFAIL: 3 tests failed")).toBe(true);
    // The first 8 000 and the last 16 000 of the 50 031 characters; 5 line ends in between.
    expect(text).toContain(
      `${"x".repeat(2_999)}\n… 5 lines (26031 characters) left out …\n${"x".repeat(975)}\n`,
    );
    expect(text.length).toBe(24_000 - 1 + "\n… 5 lines (26031 characters) left out …\n".length);
  });

  it("counts the characters that were not kept in the note of huge output", () => {
    const buffer = new OutputBuffer();
    buffer.push("y".repeat(1_000_000));
    const text = buffer.render();
    const shown = text.replace(/\n… .* left out …\n/, "").length;
    expect(text).toContain(`\n… ${1_000_000 - shown} characters left out …\n`);
    expect(1_000_000 - shown).toBeGreaterThan(970_000);
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
