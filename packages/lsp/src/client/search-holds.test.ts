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
});
