import { describe, expect, it } from "vitest";
import { SearchHolds } from "./search-holds.js";

describe("SearchHolds", () => {
  it("parks a document when the last search holding it ends, and hands it to the next search", () => {
    const holds = new SearchHolds();
    expect(holds.hold("b")).toBe(true);
    expect(holds.hold("b")).toBe(true);
    holds.release("b");
    expect(holds.isParked("b")).toBe(false); // another search still holds it
    holds.release("b");
    expect(holds.isParked("b")).toBe(true);
    holds.release("b"); // no hold left: nothing happens
    expect(holds.hold("b")).toBe(true); // the next search holds it again, unparked
    expect(holds.isParked("b")).toBe(false);
    expect(holds.overflow(0)).toEqual([]); // held: not to be closed
  });

  it("never parks or closes a document kept for its own sake, before or during a search", () => {
    const holds = new SearchHolds();
    holds.keep("a");
    expect(holds.hold("a")).toBe(false);
    holds.release("a");
    expect(holds.isParked("a")).toBe(false);
    expect(holds.hold("b")).toBe(true);
    holds.keep("b"); // asked about while the search held it
    holds.release("b");
    expect([holds.isKept("b"), holds.isParked("b")]).toEqual([true, false]);
    expect(holds.overflow(0)).toEqual([]);
    holds.forget("b"); // closed (a rename deleted it): held again like any other
    expect(holds.isKept("b")).toBe(false);
    expect(holds.hold("b")).toBe(true);
  });

  it("closes the least recently searched documents over the bound", () => {
    const holds = new SearchHolds();
    for (const uri of ["a", "b", "c", "d"]) holds.hold(uri);
    for (const uri of ["a", "b", "c", "d"]) holds.release(uri);
    holds.hold("a"); // searched again: now the most recent
    holds.release("a");
    expect(holds.overflow(2)).toEqual(["b", "c"]);
    expect(holds.overflow(2)).toEqual([]);
    expect([holds.isParked("d"), holds.isParked("a"), holds.isParked("b")]).toEqual([true, true, false]);
    expect([holds.confirmClose("b"), holds.confirmClose("c")]).toEqual([true, true]);
    expect(holds.confirmClose("b")).toBe(false); // once
  });

  it("does not close a document held or asked about between the overflow and its close", () => {
    // endSearch closes the overflow one by one, awaiting each: meanwhile another call may ask
    // about one of them (kept) or another search hold it.
    const holds = new SearchHolds();
    for (const uri of ["a", "b", "c"]) holds.hold(uri);
    for (const uri of ["a", "b", "c"]) holds.release(uri);
    expect(holds.overflow(0)).toEqual(["a", "b", "c"]);
    holds.keep("b");
    holds.hold("c");
    expect([holds.confirmClose("a"), holds.confirmClose("b"), holds.confirmClose("c")]).toEqual([
      true,
      false,
      false,
    ]);
    expect([holds.isKept("b"), holds.isParked("c")]).toEqual([true, false]);
  });
});
