import { describe, expect, it } from "vitest";
import { formatFrames } from "./format.js";

describe("formatFrames", () => {
  const frame = { id: 1, name: "main", line: 3, column: 1 };

  it("counts the frames left out in agreement with their number", () => {
    expect(formatFrames(1, [frame], 2, "/")).toMatch(/\n… 1 more frame$/);
    expect(formatFrames(1, [frame], 3, "/")).toMatch(/\n… 2 more frames$/);
    expect(formatFrames(1, [frame], 1, "/")).not.toContain("more");
  });
});
