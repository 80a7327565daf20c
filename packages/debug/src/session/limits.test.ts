import { describe, expect, it } from "vitest";
import { clipValue, limits } from "./limits.js";

describe("clipValue", () => {
  it("says how much was cut, in agreement with the count", () => {
    const cut = clipValue("x".repeat(limits.valueChars + 1));
    expect(cut).toBe(`${"x".repeat(limits.valueChars)}… (1 more character)`);
    expect(clipValue("x".repeat(limits.valueChars + 2))).toMatch(/… \(2 more characters\)$/);
    expect(clipValue("short")).toBe("short");
  });
});
