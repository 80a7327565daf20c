import { describe, expect, it } from "vitest";
import { OutputRing } from "./output-ring.js";

describe("OutputRing", () => {
  it("reads by cursor and says how much a late reader missed", () => {
    const ring = new OutputRing(3, 5);
    for (const text of ["a\n", "b\n", "c\n", "d\n"]) ring.push("stdout", text);
    const all = ring.read();
    expect(all.entries.map((entry) => entry.text)).toEqual(["b\n", "c\n", "d\n"]);
    expect(all.dropped).toBe(1);
    expect(all.next).toBe(4);
    ring.push("stderr", "e\n");
    const since = ring.read(all.next);
    expect(since.entries).toEqual([{ seq: 4, category: "stderr", text: "e\n" }]);
    expect(since.dropped).toBe(0);
  });

  it("points a cursor taken before new output at an open line the output went on", () => {
    const ring = new OutputRing();
    ring.push("stdout", "start\n");
    ring.push("stdout", "Value: ");
    // Closed lines, or nothing new: the cursor is the end at the mark.
    const idle = ring.mark();
    expect(ring.cursorSince(idle)).toBe(2);
    // print("a\nb") at the open line: "a" joins entry 1, which the reader must read again.
    const mark = ring.mark();
    ring.push("stdout", "a\nb");
    ring.push("stdout", "\n");
    expect(ring.cursorSince(mark)).toBe(1);
    expect(ring.read(ring.cursorSince(mark)).entries.map((entry) => entry.text)).toEqual([
      "Value: a\n",
      "b\n",
    ]);
    // After a closed line, new output starts a new entry.
    const closed = ring.mark();
    ring.push("stdout", "x\n");
    expect(ring.cursorSince(closed)).toBe(3);
    // An open line of another stream is not gone on: it is not read again.
    ring.push("stderr", "warn: ");
    const other = ring.mark();
    ring.push("stdout", "y\n");
    expect(ring.cursorSince(other)).toBe(5);
  });

  it("keeps each line of a chunk as an entry of its own, so that a cursor can point inside the chunk", () => {
    const ring = new OutputRing();
    ring.push("stdout", "row 0\nrow 1\nrow 2\nrow 3\n");
    expect(ring.read(2).entries).toEqual([
      { seq: 2, category: "stdout", text: "row 2\n" },
      { seq: 3, category: "stdout", text: "row 3\n" },
    ]);
    expect(ring.end).toBe(4);
  });

  it("goes on with a line the newest entry left open, from the same stream and up to the bound", () => {
    const ring = new OutputRing(100, 8);
    // print() writes its text and its newline apart.
    ring.push("stdout", "side");
    ring.push("stdout", "\n");
    ring.push("stdout", "open");
    ring.push("stderr", "err\n");
    ring.push("stdout", " line\n");
    ring.push("stdout", "abcdef");
    ring.push("stdout", "ghijk\n");
    expect(ring.read().entries.map((entry) => [entry.seq, entry.category, entry.text])).toEqual([
      [0, "stdout", "side\n"],
      [1, "stdout", "open"],
      [2, "stderr", "err\n"],
      [3, "stdout", " line\n"],
      [4, "stdout", "abcdefgh"],
      [5, "stdout", "ijk\n"],
    ]);
  });

  it("splits a line longer than the bound into pieces instead of cutting it", () => {
    const ring = new OutputRing(10, 5);
    ring.push("stdout", "0123456789ab\n");
    expect(ring.read().entries.map((entry) => entry.text)).toEqual(["01234", "56789", "ab\n"]);
  });

  it("drops the oldest lines past its character bound too, counting them", () => {
    const ring = new OutputRing(100, 10, 8);
    ring.push("stdout", "aaa\nbbb\nccc\n");
    const all = ring.read();
    expect(all.entries.map((entry) => entry.text)).toEqual(["bbb\n", "ccc\n"]);
    expect(all.dropped).toBe(1);
    expect(ring.read(3)).toEqual({ entries: [], dropped: 0, next: 3 });
  });

  it("keeps its bound over many lines, and the cursor still counts every line", () => {
    const ring = new OutputRing(1000);
    for (let chunk = 0; chunk < 100; chunk++)
      ring.push("stdout", Array.from({ length: 100 }, (_, i) => `row ${chunk * 100 + i}\n`).join(""));
    const { entries, dropped, next } = ring.read(0);
    expect(entries).toHaveLength(1000);
    expect(dropped).toBe(9000);
    expect(next).toBe(10_000);
    expect(entries[0]).toEqual({ seq: 9000, category: "stdout", text: "row 9000\n" });
    expect(ring.read(9999).entries).toEqual([{ seq: 9999, category: "stdout", text: "row 9999\n" }]);
  });

  it("keeps LF line ends: a CRLF loses its CR, also when a chunk ends between them", () => {
    const ring = new OutputRing();
    ring.push("stdout", "sum 5\r\ntotal\r");
    ring.push("stdout", "\nlast\r\n");
    expect(ring.read().entries.map((entry) => entry.text)).toEqual(["sum 5\n", "total\n", "last\n"]);
  });

  it("leaves out adapter console lines that only repeat what the tool says, never the program's", () => {
    const ring = new OutputRing();
    ring.push("console", "Type 'dlv help' for list of commands.\n");
    ring.push("stdout", "Process 1 exited with status = 0\n");
    ring.push("console", "Process 17409 exited with status = 0 (0x00000000) \r\n");
    ring.push("console", "Process 17410 has exited with status 3\n");
    ring.push("console", "Running initCommands:\n");
    expect(ring.read().entries.map((entry) => [entry.category, entry.text])).toEqual([
      ["stdout", "Process 1 exited with status = 0\n"],
      ["console", "Running initCommands:\n"],
    ]);
  });

  it("reads at most a limit of entries, and counts the characters from any cursor to the end", () => {
    const ring = new OutputRing(3);
    ring.push("stdout", "aa\nbbb\ncccc\nd");
    ring.push("stdout", "d\n");
    // "aa" dropped; kept: "bbb\n" (1), "cccc\n" (2), "dd\n" (3).
    expect(ring.read(0, 2).entries.map((entry) => entry.text)).toEqual(["bbb\n", "cccc\n"]);
    expect(ring.read(0, 2).dropped).toBe(1);
    expect([0, 1, 2, 3, 4].map((seq) => ring.charsFrom(seq))).toEqual([12, 12, 8, 3, 0]);
  });
});
