import { describe, expect, it } from "vitest";
import { trackedRuns } from "../testing/tracked-runs.js";
import { z } from "zod";
import { createRegistry } from "../registry.js";
import { resultText } from "../result/tool-result.js";
import { resourceKey } from "../run/resource-key.js";
import { echoTool } from "../testing/fixture-tools.js";
import { defineTool, type ToolDefinition } from "./define-tool.js";

const newRun = trackedRuns();

const base: ToolDefinition<z.ZodObject> = {
  name: "probe",
  tier: "write",
  parallelSafe: true,
  description: "Probes. Example: {}",
  input: z.object({}),
  execute: () => "probed",
};
const databaseKey = resourceKey<object>("database");

describe("defineTool", () => {
  it("refuses requires that is not a list of resource keys, and hooks that are not functions, naming each", () => {
    expect(() => defineTool({ ...base, requires: databaseKey as never })).toThrow(
      "tool 'probe' is badly defined: requires must be a list of resource keys ([resourceKey(name)])",
    );
    expect(() => defineTool({ ...base, requires: ["database"] as never })).toThrow(
      "requires must be a list of resource keys",
    );
    expect(() =>
      defineTool({
        ...base,
        paths: ["a.txt"] as never,
        summarize: "writes" as never,
        available: true as never,
      }),
    ).toThrow(
      "tool 'probe' is badly defined: paths must be a function; summarize must be a function; available must be a function",
    );
    expect(() => defineTool({ ...base, inRun: { tier: "exec" } as never })).toThrow(
      "inRun must be a function",
    );
    expect(defineTool({ ...base, requires: [databaseKey] }).requires).toEqual([databaseKey]);
  });

  it("leaves out a tool whose availability check or inRun throws, lists the others, and says why when called", async () => {
    const broken = [
      defineTool({
        ...base,
        name: "checks_badly",
        available: (run) => {
          run.require(databaseKey);
          return true;
        },
      }),
      defineTool({
        ...base,
        name: "tiers_badly",
        inRun: () => {
          throw new Error("backend state unreadable");
        },
      }),
      defineTool({ ...base, name: "answers_false", available: () => false as never }),
    ];
    const registry = createRegistry({ tools: [echoTool, ...broken], approval: "auto" });
    const run = newRun();
    expect(registry.toolsFor(run, "main").map((tool) => tool.name)).toEqual(["echo"]);
    const texts = [];
    for (const tool of broken) {
      const result = await registry.invoke(run, { tool: tool.name, args: {} });
      expect(result.error?.code).toBe("TOOL_NOT_WIRED");
      texts.push(resultText(result));
    }
    expect(texts).toEqual([
      "checks_badly is not available in this run: its availability check failed (no database is wired for this run)",
      "tiers_badly is not available in this run: its inRun(run) failed (backend state unreadable)",
      "answers_false is not available in this run: its availability check answered false instead of true or a reason",
    ]);
  });
});
