import { describe, expect, it } from "vitest";
import { numberedListLines } from "./numbered-lines.js";

describe("numberedListLines", () => {
  it("finds the lines of a numbered list in their usual shapes", () => {
    expect(numberedListLines("Deploy now?\n\n  1. yes, deploy\n  2. no\n")).toEqual([
      "1. yes, deploy",
      "2. no",
    ]);
    expect(numberedListLines("Which?\n1) a\n2) b")).toHaveLength(2);
    expect(numberedListLines("Which?\n(1) a\n(2) b")).toHaveLength(2);
    expect(numberedListLines("Which?\nOption 1: a\nOption 2: b")).toHaveLength(2);
    expect(numberedListLines("Which?\n1 - a\n2 - b")).toHaveLength(2);
  });

  it("leaves ordinary prose alone: numbers inside lines, years, times, a single numbered line", () => {
    expect(numberedListLines("Should I bump 2 packages and keep 3 as they are?")).toEqual([]);
    expect(numberedListLines("2024. That was the year we moved.\n2025. And this one?")).toEqual([]);
    expect(numberedListLines("Meet at\n10:30 or\n11:00?")).toEqual([]);
    expect(numberedListLines("Step 1. is done; step 2. failed. Retry?")).toEqual([]);
    expect(numberedListLines("1. Is the cache needed at all?")).toEqual([]);
  });
});
