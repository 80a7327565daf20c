import { describe, expect, it } from "vitest";
import { countLines, headAndTail } from "./cut-text.js";

describe("headAndTail", () => {
  it("stays within its line breaks when the start is cut inside a line", () => {
    // The start's budget (a quarter of 301 characters) ends just before the first line's break:
    // the line break put after it was not counted, and the result had 6 breaks of 5.
    const text = `${"-".repeat(75)}\nExceptionGroup${" ".repeat(28)}Traceback (most recent call last)\n${Array.from(
      { length: 12 },
      (_, i) => `     ${i} frame line ${i}`,
    ).join("\n")}\n`;
    for (const [chars, lines] of [
      [301, 5],
      [301, 3],
      [200, 4],
      [500, 8],
    ] as const) {
      const shown = headAndTail(text, chars, lines, "the traceback", 0.25);
      expect(countLines(shown)).toBeLessThanOrEqual(lines);
      expect(shown.length).toBeLessThanOrEqual(chars);
      expect(shown).toContain("of the traceback omitted here …");
    }
  });
});
