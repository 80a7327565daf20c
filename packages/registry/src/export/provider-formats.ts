import { ToolsError } from "../errors/tools-error.js";
import type { Tool } from "../tool/define-tool.js";
import { sharedJsonSchema, toolJsonSchema, type JsonSchema } from "./json-schema.js";
import { isStrictSchemaUnsupported, toStrictSchema } from "./strict-schema.js";

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

/**
 * OpenAI function tool (Chat Completions shape). `strict` is true unless the tool's arguments hold
 * something strict mode cannot express (a record, a tuple, a value of any type: see
 * {@link toStrictSchema}); that one tool is then exported non-strict, with its plain JSON Schema,
 * and the registry's validation still checks every call.
 */
export interface OpenAiToolSchema {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    readonly strict: boolean;
  };
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

const openAiParameters = new WeakMap<Tool, { readonly parameters: JsonSchema; readonly strict: boolean }>();

/**
 * One tool in OpenAI's function format: strict when strict mode can express its arguments, else
 * non-strict with the plain JSON Schema (as OpenAI's Responses API itself falls back).
 */
export function toOpenAiToolSchema(tool: Tool): OpenAiToolSchema {
  let converted = openAiParameters.get(tool);
  if (!converted) {
    try {
      converted = { parameters: toStrictSchema(sharedJsonSchema(tool), tool.name), strict: true };
    } catch (error) {
      if (!isStrictSchemaUnsupported(error)) throw error;
      converted = { parameters: sharedJsonSchema(tool), strict: false };
    }
    openAiParameters.set(tool, converted);
  }
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      // A copy each time: a caller changing what it got must not change the next export.
      parameters: structuredClone(converted.parameters),
      strict: converted.strict,
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
  if (!Array.isArray(tools)) {
    throw new ToolsError({
      code: "INVALID_REQUEST",
      message: "exportTools: the tools are not a list; pass the tools as [tool, …]",
    });
  }
  switch (format) {
    case "json":
      return tools.map(toJsonToolSchema);
    case "anthropic":
      return tools.map(toAnthropicToolSchema);
    case "openai":
      return tools.map(toOpenAiToolSchema);
    default:
      // Never an empty answer a harness would send as "no tools".
      throw new ToolsError({
        code: "INVALID_REQUEST",
        message: `unknown schema format ${JSON.stringify(format) ?? String(format)}; the formats are "json", "anthropic" and "openai"`,
      });
  }
}
