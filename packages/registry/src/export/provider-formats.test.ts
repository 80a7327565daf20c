import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../tool/define-tool.js";
import { exportTools } from "./provider-formats.js";
import { toStrictSchema } from "./strict-schema.js";
import { toolJsonSchema, type JsonSchema } from "./json-schema.js";
import { toolSignature } from "./tool-signature.js";

const lspLike = defineTool({
  name: "lsp",
  tier: "read",
  description: "Asks the language server.",
  parallelSafe: true,
  input: z.object({
    action: z.enum(["hover", "definition"]).describe("what to ask"),
    file: z.string().optional().describe("workspace-relative path"),
    line: z.number().int().min(1).optional(),
    options: z.object({ limit: z.number().optional(), exact: z.boolean() }).optional(),
    tags: z.array(z.string()).optional(),
  }),
  execute: () => "",
});

describe("schema export", () => {
  it("exports plain JSON Schema with tier and parallel-safety", () => {
    const tool = exportTools([lspLike], "json")[0] as unknown as Record<string, unknown>;
    expect(tool).toMatchObject({ name: "lsp", tier: "read", parallelSafe: true });
    expect(tool["inputSchema"]).toMatchObject({
      type: "object",
      required: ["action"],
      additionalProperties: false,
      properties: { action: { type: "string", enum: ["hover", "definition"], description: "what to ask" } },
    });
    expect(tool["inputSchema"]).not.toHaveProperty("$schema");
  });

  it("exports Anthropic's tool format", () => {
    const tool = exportTools([lspLike], "anthropic")[0] as unknown as Record<string, unknown>;
    expect(Object.keys(tool).sort()).toEqual(["description", "input_schema", "name"]);
    expect(tool["input_schema"]).toMatchObject({ type: "object", required: ["action"] });
  });

  it("exports OpenAI strict functions: every key required, optional ones nullable, no extra keys", () => {
    const tool = exportTools([lspLike], "openai")[0]!;
    expect(tool.type).toBe("function");
    expect(tool.function.strict).toBe(true);
    const parameters = tool.function.parameters as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(parameters.required).toEqual(["action", "file", "line", "options", "tags"]);
    expect(parameters.additionalProperties).toBe(false);
    expect(parameters.properties["action"]?.["type"]).toBe("string");
    expect(parameters.properties["file"]).toMatchObject({
      type: ["string", "null"],
      description: "workspace-relative path",
    });
    expect(parameters.properties["line"]?.["type"]).toEqual(["integer", "null"]);
    expect(parameters.properties["tags"]?.["type"]).toEqual(["array", "null"]);
    const nested = parameters.properties["options"] as {
      type: string[];
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(nested.type).toEqual(["object", "null"]);
    expect(nested.required).toEqual(["limit", "exact"]);
    expect(nested.additionalProperties).toBe(false);
    expect(nested.properties["limit"]?.["type"]).toEqual(["number", "null"]);
    expect(nested.properties["exact"]?.["type"]).toBe("boolean");
  });

  it("makes an enum or a constant nullable in both type and values, and wraps a reference in anyOf", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: {
        mode: { type: "string", enum: ["a", "b"] },
        only: { type: "string", const: "x" },
        place: { $ref: "#/definitions/place", description: "where" },
      },
      required: [],
      definitions: {
        place: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    }) as { properties: Record<string, unknown> };
    expect(strict.properties["mode"]).toEqual({ type: ["string", "null"], enum: ["a", "b", null] });
    expect(strict.properties["only"]).toEqual({ type: ["string", "null"], enum: ["x", null] });
    expect(strict.properties["place"]).toEqual({
      anyOf: [{ $ref: "#/definitions/place" }, { type: "null" }],
      description: "where",
    });
  });

  it("exports a tool whose arguments hold a record non-strict, with its plain JSON Schema; the others stay strict", () => {
    const withEnv = defineTool({
      name: "run_with_env",
      tier: "read",
      description: "Runs with environment variables.",
      parallelSafe: true,
      input: z.object({ env: z.record(z.string(), z.string()).describe("environment variables") }),
      execute: () => "",
    });
    const [env, lsp] = exportTools([withEnv, lspLike], "openai");
    expect(env!.function.strict).toBe(false);
    expect(env!.function.parameters).toEqual(exportTools([withEnv], "json")[0]!.inputSchema);
    expect((env!.function.parameters["properties"] as Record<string, unknown>)["env"]).toMatchObject({
      additionalProperties: { type: "string" },
    });
    expect(lsp!.function.strict).toBe(true);
  });

  it("hands out copies: a caller changing an exported schema changes no later export", () => {
    const pristine = {
      json: exportTools([lspLike], "json"),
      anthropic: exportTools([lspLike], "anthropic"),
      openai: exportTools([lspLike], "openai"),
      schema: toolJsonSchema(lspLike),
    };
    const deface = (schema: JsonSchema) => {
      (schema["properties"] as Record<string, JsonSchema>)["action"]!["description"] = "changed by a caller";
      (schema["required"] as string[]).push("nonsense");
      delete schema["additionalProperties"];
    };
    deface(exportTools([lspLike], "json")[0]!.inputSchema);
    deface(exportTools([lspLike], "anthropic")[0]!.input_schema);
    deface(exportTools([lspLike], "openai")[0]!.function.parameters);
    deface(toolJsonSchema(lspLike));
    expect(exportTools([lspLike], "json")).toEqual(pristine.json);
    expect(exportTools([lspLike], "anthropic")).toEqual(pristine.anthropic);
    expect(exportTools([lspLike], "openai")).toEqual(pristine.openai);
    expect(toolJsonSchema(lspLike)).toEqual(pristine.schema);
    expect(toolSignature(lspLike)).toContain('action: "hover"|"definition"');
  });

  it("refuses a format it does not know, and tools that are not a list, instead of answering nothing", () => {
    expect(() => exportTools([lspLike], "gemini" as never)).toThrow(
      'unknown schema format "gemini"; the formats are "json", "anthropic" and "openai"',
    );
    expect(() => exportTools([lspLike], "OpenAI" as never)).toThrow('unknown schema format "OpenAI"');
    expect(() => exportTools(lspLike as never, "json")).toThrow(
      "exportTools: the tools are not a list; pass the tools as [tool, …]",
    );
  });

  it("renders a one-line signature for error messages", () => {
    expect(toolSignature(lspLike)).toBe(
      'lsp(action: "hover"|"definition", file?: string, line?: integer, options?: { limit?: number, exact: boolean }, tags?: string[])',
    );
  });
});
