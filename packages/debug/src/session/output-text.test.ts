import { describe, expect, it } from "vitest";
import { labelOutput, lastLines } from "./output-text.js";

const entry = (category: string, text: string) => ({ seq: 0, category, text });

describe("labelOutput", () => {
  it("labels every line of a stderr chunk, and starts a new line before a label when stdout left one open", () => {
    const texts = labelOutput([
      entry("stdout", "out line 1\nout li"),
      entry("stderr", "Traceback:\n  File x\nValueError\n"),
      entry("stdout", "ne 2\n"),
      entry("stderr", "err "),
      entry("stderr", "continues\n\n"),
      entry("stdout", "last"),
    ]);
    expect(texts.join("")).toBe(
      "out line 1\nout li\n[stderr] Traceback:\n[stderr]   File x\n[stderr] ValueError\nne 2\n" +
        "[stderr] err continues\n\nlast",
    );
  });

  it("ends a stderr line left open before stdout goes on", () => {
    expect(labelOutput([entry("stderr", "warn"), entry("stdout", "out\n")]).join("")).toBe(
      "[stderr] warn\nout\n",
    );
  });
});

describe("lastLines", () => {
  it("keeps whole lines from the end, saying how many earlier ones were left out", () => {
    const text = Array.from({ length: 100 }, (_, i) => `out line ${i}\n`).join("");
    const tail = lastLines(text, 50, "op 'output' reads them");
    expect(tail).toBe(
      "(96 earlier lines left out; op 'output' reads them)\nout line 96\nout line 97\nout line 98\nout line 99\n",
    );
    expect(lastLines("short\n", 50)).toBe("short\n");
  });

  it("cuts a last line longer than the bound at its start, marked", () => {
    expect(lastLines(`a\n${"x".repeat(20)}`, 10)).toBe(`(1 earlier line left out)\n…${"x".repeat(10)}`);
  });
});
