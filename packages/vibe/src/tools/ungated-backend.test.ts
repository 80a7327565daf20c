import { describe, expect, it } from "vitest";
import type { WorkerBackend } from "../backends/worker-backend.js";
import { ungatedCardText, ungatedSummaryLimit } from "./ungated-backend.js";

const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const backend: WorkerBackend = {
  description: "command claude -p",
  gated: false,
  perform: () => Promise.resolve(""),
};

describe("ungatedCardText", () => {
  it("cuts a long brief between characters, never inside an emoji, within the card's bound", () => {
    // Briefs one letter apart: whichever parity the room has, one of them puts the cut inside an emoji.
    for (const start of ["", "a"]) {
      const summary = ungatedCardText(backend, 'spawn fast worker "x"', [
        { name: "Brief", text: `${start}${"😀".repeat(400)}` },
      ]);
      expect(summary).toContain("more characters]");
      expect(summary.length).toBeLessThanOrEqual(ungatedSummaryLimit);
      expect(summary).not.toMatch(loneHalf);
    }
  });
});
