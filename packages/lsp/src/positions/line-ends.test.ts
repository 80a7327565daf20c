import { describe, expect, it } from "vitest";
import { lineSpan, lineSpans, splitLines } from "./line-ends.js";
import { resolvePosition } from "./resolve-position.js";

describe("line ends as LSP counts them", () => {
  it("splits at \\r\\n, \\n and a lone \\r alike", () => {
    expect(splitLines("a\rb\r\nc\nd")).toEqual(["a", "b", "c", "d"]);
    expect(splitLines("a\r\r\nb\n")).toEqual(["a", "", "b", ""]);
    expect(splitLines("")).toEqual([""]);
  });

  it("finds where a line starts and where its text ends", () => {
    const text = "ab\rcd\r\nef\ngh";
    expect(lineSpan(text, 0)).toEqual({ start: 0, end: 2 });
    expect(lineSpan(text, 1)).toEqual({ start: 3, end: 5 });
    expect(lineSpan(text, 2)).toEqual({ start: 7, end: 9 });
    expect(lineSpan(text, 3)).toEqual({ start: 10, end: 12 });
    expect(lineSpan(text, 4)).toBeUndefined();
    expect(lineSpan("a\r", 1)).toEqual({ start: 2, end: 2 });
  });

  it("finds every line's span in one pass, as lineSpan does line by line", () => {
    for (const text of ["ab\rcd\r\nef\ngh", "a\r", "", "\n\r\n\r", "x\r\r\ny\n"]) {
      const spans = lineSpans(text);
      expect(spans.starts).toHaveLength(splitLines(text).length);
      spans.starts.forEach((start, line) => {
        expect(lineSpan(text, line), JSON.stringify([text, line])).toEqual({ start, end: spans.ends[line] });
      });
      expect(lineSpan(text, spans.starts.length)).toBeUndefined();
    }
  });

  it("resolves a symbol on a line of a file ending lines with a bare carriage return", () => {
    const old = "export const cr1 = 1;\rexport const cr2 = 2;\rexport const cr3 = cr2;\r";
    expect(resolvePosition(old, 3, "cr2", "src/cr.ts")).toEqual({
      line: 2,
      character: 19,
      length: 3,
      identifier: "cr2",
    });
  });
});
