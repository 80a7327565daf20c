import { describe, expect, it } from "vitest";
import { CallTally } from "./call-tally.js";

describe("CallTally", () => {
  it("names every tool of an attempt that called a few, most called first", () => {
    const tally = new CallTally();
    tally.turns = 3;
    tally.count("read", false);
    tally.count("grep", true);
    tally.count("read", false);
    expect(tally.soFar(false)).toBe(
      "It is in model turn 3, having made 3 tool calls (read ×2, grep ×1; 1 of them an error).",
    );
    expect(tally.summary()).toBe("3 model turns, 3 tool calls (read ×2, grep ×1; 1 of them an error)");
  });

  it("names the ten most called and counts the rest together, whatever names a model made up", () => {
    const tally = new CallTally();
    tally.turns = 40;
    // 500 made-up names of 50 characters each, and one real tool called most.
    for (let index = 0; index < 500; index++)
      tally.count(`made_up_tool_${String(index).padStart(37, "x")}`, true);
    for (let index = 0; index < 5; index++) tally.count("read", false);
    tally.calling = "y".repeat(5_000);
    const text = tally.soFar(true);
    expect(text.length).toBeLessThan(1_000);
    expect(text).toMatch(
      /^It was in model turn 40, in a call of y{59}… \(cut short\), having made 505 tool calls \(read ×5, /,
    );
    expect(text).toContain("and 491 calls of 491 other tools; 500 of them errors) before it.");
    expect(text.match(/×/g)).toHaveLength(10);
  });

  it("counts one other tool in the singular", () => {
    const tally = new CallTally();
    tally.turns = 1;
    for (let index = 0; index < 11; index++) tally.count(`tool${String(index).padStart(2, "0")}`, false);
    expect(tally.soFar(false)).toContain("tool09 ×1, and 1 call of 1 other tool)");
  });

  it("says nothing before the first turn", () => {
    expect(new CallTally().soFar(true)).toBe("");
  });
});
