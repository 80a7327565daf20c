import { describe, expect, it } from "vitest";
import { CallTally } from "./call-tally.js";
import { modelTurnLimit, turnLimitError } from "./worker-instructions.js";

describe("modelTurnLimit", () => {
  it("says 'turn' for one and 'turns' for more", () => {
    expect(modelTurnLimit(1, "fixer", "1 model turn, no tool calls")).toContain(
      "worker 'fixer' stopped after 1 model turn without a final answer",
    );
    expect(modelTurnLimit(3, "fixer", "3 model turns, no tool calls")).toContain(
      "stopped after 3 model turns without",
    );
  });

  it("says what the worker did: turns and calls per tool, errors counted", () => {
    const tally = new CallTally();
    tally.turns = 3;
    tally.count("read", false);
    tally.count("grep", true);
    tally.count("read", false);
    const error = turnLimitError(3, "fixer", tally);
    expect(error.code).toBe("TURN_LIMIT");
    expect(error.message).toContain(
      "(it did 3 model turns, 3 tool calls (read ×2, grep ×1; 1 of them an error))",
    );
    expect(error.data).toEqual({
      maxTurns: 3,
      done: "3 model turns, 3 tool calls (read ×2, grep ×1; 1 of them an error)",
    });
  });
});
