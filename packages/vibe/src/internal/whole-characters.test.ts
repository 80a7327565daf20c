import { describe, expect, it } from "vitest";
import { boundWholeText } from "./whole-characters.js";

const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("cuts between whole characters", () => {
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
