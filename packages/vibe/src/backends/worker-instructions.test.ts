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

  it("tells the lead what it can do, and that only the operator can raise the limit", () => {
    const text = modelTurnLimit(30, "fixer", "30 model turns, 40 tool calls (read ×40)");
    expect(text).toContain(
      "re-brief it with a narrower task or a smaller first step (vibe_send), or split the work between workers.",
    );
    expect(text).toContain(
      "The turn limit is the harness's setting (the backend's maxTurns), which only the operator can raise: if the task needs more turns, say so in your answer",
    );
    // Not advice the lead cannot follow: it has no way to change the backend's configuration.
    expect(text).not.toContain("or raise the backend's maxTurns");
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
