import { describe, expect, it, vi } from "vitest";
import { ProbedDocuments } from "./probed-documents.js";

describe("ProbedDocuments", () => {
  it("has nothing to wait for on a document no probe holds", () => {
    const probes = new ProbedDocuments();
    const end = probes.begin(["file:///a.c"], 10_000);
    expect(probes.settled("file:///b.c")).toBeUndefined();
    end();
    expect(probes.settled("file:///a.c")).toBeUndefined();
  });

  it("settles a wait when the probe ends, and after a later probe of the same document too", async () => {
    const probes = new ProbedDocuments();
    const endFirst = probes.begin(["file:///a.c", "file:///b.c"], 10_000);
    const order: string[] = [];
    const waited = probes.settled("file:///a.c")!.then(() => order.push("settled"));
    // Another rename's check takes the document before the first ends.
    const endSecond = probes.begin(["file:///a.c"], 10_000);
    endFirst();
    await Promise.resolve();
    expect(probes.settled("file:///b.c")).toBeUndefined();
    order.push("second ends");
    endSecond();
    await waited;
    expect(order).toEqual(["second ends", "settled"]);
  });

  it("ends a probe its owner never ends after its bound, and forgets it", async () => {
    vi.useFakeTimers();
    try {
      const probes = new ProbedDocuments();
      probes.begin(["file:///a.c"], 8_000);
      let settled = false;
      void probes.settled("file:///a.c")!.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(7_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      expect(probes.settled("file:///a.c")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
