import { describe, expect, it } from "vitest";
import { SearchHolds } from "./search-holds.js";

describe("SearchHolds", () => {
  it("closes a document when the last search holding it ends", () => {
    const holds = new SearchHolds();
    expect(holds.hold("b")).toBe(true);
    expect(holds.hold("b")).toBe(true);
    expect(holds.release("b")).toBe(false);
    expect(holds.release("b")).toBe(true);
    expect(holds.release("b")).toBe(false);
  });

  it("never closes a document kept for its own sake, before or during a search", () => {
    const holds = new SearchHolds();
    holds.keep("a");
    expect(holds.hold("a")).toBe(false);
    expect(holds.release("a")).toBe(false);
    expect(holds.hold("b")).toBe(true);
    holds.keep("b"); // asked about while the search held it
    expect(holds.release("b")).toBe(false);
    expect(holds.isKept("b")).toBe(true);
    holds.forget("b"); // closed (a rename deleted it): held again like any other
    expect(holds.isKept("b")).toBe(false);
    expect(holds.hold("b")).toBe(true);
    expect(holds.release("b")).toBe(true);
  });

  it("parks a document the last search let go of, and hands it to the next search", () => {
    const holds = new SearchHolds();
    holds.hold("b");
    holds.hold("b");
    expect(holds.release("b", true)).toBe(false); // another search still holds it
    expect(holds.isParked("b")).toBe(false);
    expect(holds.release("b", true)).toBe(false); // parked, not to be closed
    expect(holds.isParked("b")).toBe(true);
    expect(holds.release("b", true)).toBe(false); // no hold left: nothing happens
    expect(holds.hold("b")).toBe(true); // the next search holds it again, unparked
    expect(holds.isParked("b")).toBe(false);
    expect(holds.release("b", false)).toBe(true); // without parking: closed now
    expect(holds.parkedCount).toBe(0);
  });

  it("unparks the least recently searched documents over the bound", () => {
    const holds = new SearchHolds();
    for (const uri of ["a", "b", "c", "d"]) holds.hold(uri);
    for (const uri of ["a", "b", "c", "d"]) holds.release(uri, true);
    holds.hold("a"); // searched again: now the most recent
    holds.release("a", true);
    expect(holds.overflow(2)).toEqual(["b", "c"]);
    expect(holds.parkedCount).toBe(2);
    expect(holds.overflow(2)).toEqual([]);
    expect([holds.isParked("d"), holds.isParked("a")]).toEqual([true, true]);
  });

  it("a parked document asked about, or closed, is no longer parked", () => {
    const holds = new SearchHolds();
    holds.hold("a");
    holds.hold("b");
    holds.release("a", true);
    holds.release("b", true);
    holds.keep("a");
    holds.forget("b");
    expect([holds.isParked("a"), holds.isKept("a"), holds.isParked("b")]).toEqual([false, true, false]);
    expect(holds.overflow(0)).toEqual([]);
  });
});
