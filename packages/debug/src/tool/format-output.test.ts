import { describe, expect, it } from "vitest";
import { OutputRing } from "../session/output-ring.js";
import { formatOutput, formatOutputSince } from "./format-output.js";

describe("formatOutput", () => {
  it("counts what is left after the answer in agreement with the numbers", () => {
    const ring = new OutputRing();
    // 12 000 characters fill one answer exactly; the one character after them is left.
    ring.push("stdout", `${"a".repeat(7999)}\n`);
    ring.push("stdout", `${"b".repeat(3999)}\n`);
    ring.push("stdout", "x");
    expect(formatOutput(ring, 0)).toContain(
      '(next cursor: 2; 1 more line (1 character) after it: read on with {"op":"output","cursor":2})',
    );
    // The open line goes on in its entry.
    ring.push("stdout", "yz");
    expect(formatOutput(ring, 0)).toContain("(next cursor: 2; 1 more line (3 characters) after it");
    ring.push("stdout", "\nw");
    expect(formatOutput(ring, 0)).toContain("(next cursor: 2; 2 more lines (5 characters) after it");
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
        "(next cursor: 5; no more output yet)",
    );
  });

  it("reads every line of output that came in big chunks, page after page", () => {
    const ring = new OutputRing();
    // As debugpy sends a program's big write: chunks of 4096 characters, cut inside lines.
    const all = Array.from({ length: 20_000 }, (_, i) => `row ${i}\n`).join("");
    for (let at = 0; at < all.length; at += 4096) ring.push("stdout", all.slice(at, at + 4096));
    let cursor = 0;
    let read = "";
    for (let page = 0; page < 1000; page++) {
      const text = formatOutput(ring, cursor);
      const next = Number(/\(next cursor: (\d+)[^\n]*\)$/.exec(text)![1]);
      read += text.slice(0, text.lastIndexOf("\n(next cursor:") + 1);
      if (text.endsWith("no more output yet)")) break;
      expect(next).toBeGreaterThan(cursor);
      cursor = next;
    }
    expect(read).toBe(all);
  });

  it("counts the lines dropped before a cursor the ring no longer holds", () => {
    const ring = new OutputRing(3);
    ring.push("stdout", "a\nb\nc\nd\ne\n");
    expect(formatOutput(ring, 1)).toBe(
      "(1 earlier output line was dropped from the buffer before this was read; it starts at cursor 2)\n" +
        "c\nd\ne\n(next cursor: 5; no more output yet)",
    );
  });

  it("keeps the cursor on a last line that has no newline yet, and shows it whole once it has", () => {
    const ring = new OutputRing();
    ring.push("stdout", "one\ntw");
    expect(formatOutput(ring, 0)).toBe(
      "one\ntw\n(next cursor: 1, at the last line, which has no newline yet: reading from there shows it again with whatever follows it; no more output yet)",
    );
    ring.push("stdout", "o\nthree\n");
    expect(formatOutput(ring, 1)).toBe("two\nthree\n(next cursor: 3; no more output yet)");
  });
});

describe("formatOutputSince", () => {
  it("shows the last whole lines since the cursor, counting the earlier ones left out, and says when there were none", () => {
    const ring = new OutputRing();
    ring.push("stdout", "before\n");
    expect(formatOutputSince(ring, 1, "the continue")).toBe(
      "(the program wrote no output since the continue)",
    );
    for (let i = 0; i < 300; i++)
      ring.push("stdout", `line ${String(i).padStart(3, "0")} ${"x".repeat(20)}\n`);
    ring.push("stderr", "fatal: gone\n");
    const text = formatOutputSince(ring, 1, "the step");
    expect(text.length).toBeLessThan(1700);
    expect(text).toMatch(
      /^output since the step \(read it with \{"op":"output","cursor":1\}\):\n\(\d+ earlier lines left out\)\nline \d{3} x+\n/,
    );
    expect(text.endsWith("line 299 xxxxxxxxxxxxxxxxxxxx\n[stderr] fatal: gone")).toBe(true);
    expect(text).not.toContain("before");
  });
});
