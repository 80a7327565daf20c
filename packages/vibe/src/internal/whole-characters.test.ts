import { describe, expect, it } from "vitest";
import { boundWholeText, headOf, tailOf } from "./whole-characters.js";

const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("cuts between whole characters", () => {
  it("headOf and tailOf keep a pair together at either parity, and never exceed the bound", () => {
    for (const text of ["😀😀😀", "a😀😀😀", "😀😀😀b", "a😀😀😀b"]) {
      for (let max = 0; max <= text.length + 1; max++) {
        const head = headOf(text, max);
        const tail = tailOf(text, max);
        expect(head.length).toBeLessThanOrEqual(max);
        expect(tail.length).toBeLessThanOrEqual(max);
        expect(head.length).toBeGreaterThanOrEqual(Math.min(max, text.length) - 1);
        expect(tail.length).toBeGreaterThanOrEqual(Math.min(max, text.length) - 1);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
        expect(head).not.toMatch(loneHalf);
        expect(tail).not.toMatch(loneHalf);
      }
    }
  });

  it("boundWholeText's note counts exactly what is not shown, keeping the start or the end", () => {
    for (const text of ["a😀😀😀😀b", "😀😀😀😀b", "a😀😀😀😀"]) {
      for (let maxChars = 2; maxChars < text.length; maxChars++) {
        const head = boundWholeText(text, { maxChars });
        const [, shown, left] = /^([^]*)\n… (\d+) more characters?$/.exec(head) ?? [];
        expect(shown).not.toMatch(loneHalf);
        expect((shown as string).length + Number(left)).toBe(text.length);
        expect((shown as string).length).toBeLessThanOrEqual(maxChars);
        const tail = boundWholeText(text, { maxChars, keep: "tail" });
        const [, leftTail, shownTail] = /^… (\d+) more characters?\n([^]*)$/.exec(tail) ?? [];
        expect(shownTail).not.toMatch(loneHalf);
        expect((shownTail as string).length + Number(leftTail)).toBe(text.length);
      }
    }
  });
});
