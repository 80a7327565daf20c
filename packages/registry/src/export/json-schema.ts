import { z } from "zod";
import type { Tool } from "../tool/define-tool.js";

/** A JSON Schema object (draft-07), as plain data. */
export type JsonSchema = { [key: string]: unknown };

const cache = new WeakMap<Tool, JsonSchema>();

/**
 * The tool's arguments as JSON Schema (draft-07, input side: what the model must send). Computed
 * once per tool.
 */
export function toolJsonSchema(tool: Tool): JsonSchema {
  const cached = cache.get(tool);
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.input, {
    target: "draft-07",
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  delete schema["$schema"];
  // The registry refuses unknown argument names (with a did-you-mean), so say so in the schema.
  schema["additionalProperties"] = false;
  cache.set(tool, schema);
  return schema;
}
