import { describe, expect, it } from "vitest";
import { OutputRing } from "../session/output-ring.js";
import { formatOutput } from "./format-output.js";

describe("formatOutput", () => {
  it("counts what is left after the answer in agreement with the numbers", () => {
    const ring = new OutputRing();
    // 12 000 characters fill one answer exactly; the one character after them is left.
    ring.push("stdout", "a".repeat(8000));
    ring.push("stdout", "b".repeat(4000));
    ring.push("stdout", "x");
    expect(formatOutput(ring, 0)).toContain(
      '(next cursor: 2; 1 more entry (1 character) after it: read on with {"op":"output","cursor":2})',
    );
    ring.push("stdout", "yz");
    expect(formatOutput(ring, 0)).toContain("(next cursor: 2; 2 more entries (3 characters) after it");
  });

  it("labels each stderr line, and never inside a line stdout left open", () => {
    const ring = new OutputRing();
    ring.push("stdout", "out line 26867");
    ring.push("stderr", 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: boom\n');
    ring.push("stdout", " and on\n");
    expect(formatOutput(ring, 0)).toBe(
      "out line 26867\n" +
        "[stderr] Traceback (most recent call last):\n" +
        '[stderr]   File "x.py", line 1\n' +
        "[stderr] ValueError: boom\n" +
        " and on\n" +
        "(next cursor: 3; no more output yet)",
    );
  });
});
