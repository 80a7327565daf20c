import { describe, expect, it } from "vitest";
import { headOf, tailOf } from "./whole-characters.js";

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
});
