import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { trackedRuns } from "../testing/tracked-runs.js";
import { defineTool } from "../tool/define-tool.js";

const newRun = trackedRuns();

const echoTool = defineTool({
  name: "echo",
  tier: "read",
  description: "Echoes.",
  parallelSafe: true,
  input: z.object({ text: z.string() }),
  execute: (input) => input.text,
});

describe("a harness's call id is free again after any call that held it", () => {
  it("after a request whose tool is no name at all (an object without a prototype)", async () => {
    const registry = createRegistry({ tools: [echoTool] });
    const run = newRun();
    const odd = await registry.invoke(run, {
      tool: Object.create(null) as string,
      args: {},
      callId: "toolu_odd_name",
    });
    expect(odd.error?.code).toBe("UNKNOWN_TOOL");
    const again = await registry.invoke(run, { tool: "echo", args: { text: "a" }, callId: "toolu_odd_name" });
    expect(resultText(again)).toBe("a");
  });
});
