import { describe, expect, it } from "vitest";
import { closestLine, similarity } from "./similar-line.js";

/** `lines` behind a proxy that counts how many of its lines are read. */
function counted(lines: string[]): { lines: string[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(lines, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { lines: proxy, reads: () => reads };
}

describe("closestLine", () => {
  it("finds the most similar line", () => {
    expect(closestLine(["const a = 1;", "function foo() {", "}"], "function fooo() {")).toEqual({
      line: 2,
      text: "function foo() {",
    });
    expect(similarity("abc", "abc")).toBe(1);
  });

  it("looks at a bounded number of lines of a huge file", () => {
    const many = counted(
      Array.from({ length: 120_000 }, (_, index) => `value_${index} = compute(${index});`),
    );
    closestLine(many.lines, "nothing like any line here at all");
    expect(many.reads()).toBeLessThanOrEqual(50_000);
  });

  it("looks at a bounded number of characters of very long lines", () => {
    const long = counted(Array.from({ length: 5_000 }, () => "x".repeat(2_000)));
    expect(closestLine(long.lines, "y".repeat(50))).toBeUndefined();
    expect(long.reads()).toBeLessThanOrEqual(2_000_000 / 1_000 + 1);
  });
});
