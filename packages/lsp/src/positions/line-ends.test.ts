import { describe, expect, it } from "vitest";
import { lineSpan, lineSpans, splitLines } from "./line-ends.js";
import { resolvePosition } from "./resolve-position.js";

describe("line ends as the user sees them", () => {
  it("splits at \\n and \\r\\n only: a lone \\r, U+2028 and U+2029 stay in the line", () => {
    expect(splitLines("a\rb\r\nc\nd")).toEqual(["a\rb", "c", "d"]);
    expect(splitLines("a\r\r\nb\n")).toEqual(["a\r", "b", ""]);
    expect(splitLines("a\u2028b\u2029c")).toEqual(["a\u2028b\u2029c"]);
    expect(splitLines("")).toEqual([""]);
  });

  it("finds where a line starts and where its text ends", () => {
    const text = "ab\rcd\r\nef\ngh";
    expect(lineSpan(text, 0)).toEqual({ start: 0, end: 5 });
    expect(lineSpan(text, 1)).toEqual({ start: 7, end: 9 });
    expect(lineSpan(text, 2)).toEqual({ start: 10, end: 12 });
    expect(lineSpan(text, 3)).toBeUndefined();
    expect(lineSpan("a\r", 1)).toBeUndefined();
    expect(lineSpan("a\r\n", 1)).toEqual({ start: 3, end: 3 });
  });

  it("finds every line's span in one pass, as lineSpan does line by line", () => {
    for (const text of ["ab\rcd\r\nef\ngh", "a\r", "", "\n\r\n\r", "x\r\r\ny\n", "\r\n"]) {
      const spans = lineSpans(text);
      expect(spans.starts).toHaveLength(splitLines(text).length);
      spans.starts.forEach((start, line) => {
        expect(lineSpan(text, line), JSON.stringify([text, line])).toEqual({ start, end: spans.ends[line] });
      });
      expect(lineSpan(text, spans.starts.length)).toBeUndefined();
    }
  });

  it("resolves a symbol in a file ending lines with a bare carriage return as on its one line", () => {
    const old = "export const cr1 = 1;\rexport const cr2 = 2;\rexport const cr3 = cr2;\r";
    expect(resolvePosition(old, 1, "cr3", "src/cr.ts")).toEqual({
      line: 0,
      character: 57,
      length: 3,
      identifier: "cr3",
    });
  });
});
