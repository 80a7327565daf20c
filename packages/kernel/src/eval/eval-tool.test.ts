import { createRegistry, createRun, resultText, type ApprovalRequest } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { createKernelFactory, kernelFactoryKey } from "../factory/kernel-factory.js";
import { evalTool } from "./eval-tool.js";

describe("eval's arguments", () => {
  it("refuses a description that is not 5–10 words before the operator is asked", async () => {
    const asked: ApprovalRequest[] = [];
    const registry = createRegistry({
      tools: [evalTool],
      approval: "ask",
      approver: {
        attached: () => true,
        request: (request) => {
          asked.push(request);
          // Denied: the test needs no kernel, only to see whether the card was shown.
          return Promise.resolve({ allow: false, reason: "test" });
        },
      },
    });
    const run = createRun({
      workingDirectory: process.cwd(),
      resources: [[kernelFactoryKey, createKernelFactory({ warmSpare: false })]],
    });
    try {
      const short = await registry.invoke(run, {
        tool: "eval",
        args: { code: "x = 1", description: "test" },
      });
      expect(short.error?.code).toBe("INVALID_ARGUMENTS");
      expect(resultText(short)).toMatch(
        /description: must be 5–10 words saying what the cell does \(got 1: 'test'\)/,
      );
      const long = await registry.invoke(run, {
        tool: "eval",
        args: { code: "x = 1", description: "one two three four five six seven eight nine ten eleven" },
      });
      expect(resultText(long)).toMatch(/got 11/);
      expect(asked).toEqual([]);

      const good = await registry.invoke(run, {
        tool: "eval",
        args: { code: "x = 1", description: "set x to one for a test" },
      });
      expect(good.error?.code).not.toBe("INVALID_ARGUMENTS");
      expect(asked.map((request) => request.tool)).toEqual(["eval"]);
      // The rule does not break the schema the model is given.
      const schema = registry.schema(run, "main").find((tool) => tool.name === "eval");
      expect(JSON.stringify(schema)).toContain("5–10 words");
    } finally {
      await run.dispose();
    }
  });
});
