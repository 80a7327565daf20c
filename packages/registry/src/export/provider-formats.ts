import type { Tool } from "../tool/define-tool.js";
import { toolJsonSchema, type JsonSchema } from "./json-schema.js";

/** Formats a surface's schema can be exported in. */
export type SchemaFormat = "json" | "anthropic" | "openai";

/** Plain JSON Schema form: name, description, tier, parallel-safety and the argument schema. */
export interface JsonToolSchema {
  readonly name: string;
  readonly description: string;
  readonly tier: string;
  readonly parallelSafe: boolean;
  readonly inputSchema: JsonSchema;
}

/** Anthropic Messages API tool. */
export interface AnthropicToolSchema {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
}

/** OpenAI function tool (Chat Completions shape), strict mode. */
export interface OpenAiToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    readonly strict: true;
  };
}

function clone(schema: JsonSchema): JsonSchema {
  return structuredClone(schema);
}

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema["type"];
  if (typeof type === "string" && type !== "null") {
    const result: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema["enum"])) result["enum"] = [...(schema["enum"] as unknown[]), null];
    return result;
  }
  if (Array.isArray(type)) return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  if (Array.isArray(schema["anyOf"]))
    return { ...schema, anyOf: [...(schema["anyOf"] as unknown[]), { type: "null" }] };
  const { description, ...rest } = schema;
  const wrapped: JsonSchema = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) wrapped["description"] = description;
  return wrapped;
}

/**
 * OpenAI strict mode: every object lists all its keys in `required` and forbids extra ones;
 * a key that was optional becomes nullable instead (the registry reads `null` as "omitted").
 * Defaults are dropped, since strict mode does not accept them.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  const result = clone(schema);
  delete result["default"];
  if (result["type"] === "object" || (Array.isArray(result["type"]) && result["type"].includes("object"))) {
    const properties = (result["properties"] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((result["required"] ?? []) as string[]);
    const strictProperties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(properties)) {
      const strict = toStrictSchema(property);
      strictProperties[name] = required.has(name) ? strict : nullable(strict);
    }
    result["properties"] = strictProperties;
    result["required"] = Object.keys(strictProperties);
    result["additionalProperties"] = false;
  }
  if (result["items"] && typeof result["items"] === "object") {
    result["items"] = toStrictSchema(result["items"] as JsonSchema);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(result[key])) result[key] = (result[key] as JsonSchema[]).map(toStrictSchema);
  }
  return result;
}

/** One tool in the plain JSON Schema form. */
export function toJsonToolSchema(tool: Tool): JsonToolSchema {
  return {
    name: tool.name,
    description: tool.description,
    tier: tool.tier,
    parallelSafe: tool.parallelSafe,
    inputSchema: toolJsonSchema(tool),
  };
}

/** One tool in Anthropic's format. */
export function toAnthropicToolSchema(tool: Tool): AnthropicToolSchema {
  return { name: tool.name, description: tool.description, input_schema: toolJsonSchema(tool) };
}

/** One tool in OpenAI's strict function format. */
export function toOpenAiToolSchema(tool: Tool): OpenAiToolSchema {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: toStrictSchema(toolJsonSchema(tool)),
      strict: true,
    },
  };
}

/** A tool schema in the given format. */
export type ToolSchemaOf<F extends SchemaFormat> = F extends "anthropic"
  ? AnthropicToolSchema
  : F extends "openai"
    ? OpenAiToolSchema
    : JsonToolSchema;

/** Tools in the requested format, in the order given. */
export function exportTools<F extends SchemaFormat>(tools: readonly Tool[], format: F): ToolSchemaOf<F>[];
export function exportTools(
  tools: readonly Tool[],
  format: SchemaFormat,
): JsonToolSchema[] | AnthropicToolSchema[] | OpenAiToolSchema[] {
  switch (format) {
    case "json":
      return tools.map(toJsonToolSchema);
    case "anthropic":
      return tools.map(toAnthropicToolSchema);
    case "openai":
      return tools.map(toOpenAiToolSchema);
  }
}
