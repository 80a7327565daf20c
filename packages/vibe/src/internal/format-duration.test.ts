import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration.js";

describe("formatDuration", () => {
  it("reads each range in its unit", () => {
    expect(formatDuration(850)).toBe("850ms");
    expect(formatDuration(12_345)).toBe("12.3s");
    expect(formatDuration(245_000)).toBe("4m 05s");
    expect(formatDuration(3_720_000)).toBe("1h 02m");
  });

  it("never rounds up to the next unit's first value in the unit below", () => {
    expect(formatDuration(999.6)).toBe("1.0s");
    expect(formatDuration(59_960)).toBe("1m 00s");
    expect(formatDuration(59_940)).toBe("59.9s");
  });
});
