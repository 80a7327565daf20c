import { describe, expect, it } from "vitest";
import { lineNumbersAt, listLineNumbers } from "./line-numbers.js";

describe("lineNumbersAt", () => {
  it("numbers positions from 1, in one pass", () => {
    const text = "ab\ncd\nab\n\nab";
    expect(lineNumbersAt(text, [0, 6, 10])).toEqual([1, 3, 5]);
    expect(lineNumbersAt(text, [])).toEqual([]);
  });
});

describe("listLineNumbers", () => {
  it("lists a few numbers whole and counts the rest past the bound", () => {
    expect(listLineNumbers([2, 6])).toBe("2, 6");
    const many = Array.from({ length: 80_000 }, (_, index) => index + 1);
    expect(listLineNumbers(many)).toBe(
      "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 79980 more",
    );
  });
});
