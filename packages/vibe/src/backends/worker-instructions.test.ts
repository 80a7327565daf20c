import { describe, expect, it } from "vitest";
import { modelTurnLimit } from "./worker-instructions.js";

describe("modelTurnLimit", () => {
  it("says 'turn' for one and 'turns' for more", () => {
    expect(modelTurnLimit(1, "fixer")).toContain(
      "worker 'fixer' stopped after 1 model turn without a final answer",
    );
    expect(modelTurnLimit(3, "fixer")).toContain("stopped after 3 model turns without");
  });
});
