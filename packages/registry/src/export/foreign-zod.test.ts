import { describe, expect, it } from "vitest";
import type { z } from "zod";
// A second, real copy of zod (4.1.12, a dev dependency under another name): a harness's own zod
// when it is not the registry's, as a JavaScript harness can have it. That version keeps
// `.describe()` and `.meta()` texts in a registry of its own module, not the one the registry's
// zod reads. Typed as ours: comparing the two versions' types makes tsc run out of memory.
import * as foreignZod from "zod-4-1";
import { defineTool } from "../tool/define-tool.js";
import { exportTools } from "./provider-formats.js";

const harnessZod = foreignZod.z as unknown as typeof z;

const readTool = defineTool({
  name: "read",
  tier: "read",
  description: "Reads a file of the workspace.",
  parallelSafe: true,
  input: harnessZod.object({
    path: harnessZod.string().describe("file to read, relative to the working directory"),
    limit: harnessZod.number().int().optional().describe("lines to read at most"),
    range: harnessZod
      .object({ from: harnessZod.number().int().meta({ description: "first line, 1-based", title: "From" }) })
      .optional(),
  }),
  execute: () => "",
});

describe("a tool whose schema comes from another copy of zod (the harness's own)", () => {
  it("keeps every field's description in the Anthropic, OpenAI and plain exports", () => {
    const [anthropic] = exportTools([readTool], "anthropic");
    const [openai] = exportTools([readTool], "openai");
    const [json] = exportTools([readTool], "json");
    for (const schema of [anthropic!.input_schema, openai!.function.parameters, json!.inputSchema]) {
      const properties = schema["properties"] as Record<string, Record<string, unknown>>;
      expect(properties["path"]?.["description"]).toBe("file to read, relative to the working directory");
      expect(properties["limit"]?.["description"]).toBe("lines to read at most");
      const range = properties["range"] as { properties: Record<string, Record<string, unknown>> };
      expect(range.properties["from"]).toMatchObject({ description: "first line, 1-based", title: "From" });
    }
  });
});
