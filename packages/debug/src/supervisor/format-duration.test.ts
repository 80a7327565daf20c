import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration.js";

describe("formatDuration", () => {
  it("says a TTL in minutes in agreement with their number, else in seconds", () => {
    expect(formatDuration(60_000)).toBe("1 minute");
    expect(formatDuration(30 * 60_000)).toBe("30 minutes");
    expect(formatDuration(4000)).toBe("4 s");
    expect(formatDuration(90_000)).toBe("90 s");
  });
});
