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

  it("clips an oversized entry", () => {
    const ring = new OutputRing(10, 5);
    ring.push("stdout", "0123456789");
    expect(ring.read().entries[0]!.text).toBe("01234… (cut)\n");
  });
});
