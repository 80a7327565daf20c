import type { Tool } from "../tool/define-tool.js";
import { sharedJsonSchema, type JsonSchema } from "./json-schema.js";

/** Objects are spelled out this deep (`{ file: string, line?: integer }`); deeper ones read `object`. */
const spelledDepth = 2;

function typeOf(schema: JsonSchema, depth = 0): string {
  if (Array.isArray(schema["enum"])) return schema["enum"].map((value) => JSON.stringify(value)).join("|");
  if (schema["const"] !== undefined) return JSON.stringify(schema["const"]);
  const type = schema["type"];
  if (type === "array") {
    const items = schema["items"];
    return `${items && typeof items === "object" ? typeOf(items as JsonSchema, depth) : "any"}[]`;
  }
  if (type === "object" && depth < spelledDepth) {
    const fields = fieldsOf(schema, depth + 1);
    if (fields.length > 0) return `{ ${fields.join(", ")} }`;
  }
  if (Array.isArray(type)) return type.join("|");
  if (typeof type === "string") return type;
  const union = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((option) => typeOf(option, depth)).join("|");
  return "any";
}

/** `name: type` for each property, `name?` for an optional one. */
function fieldsOf(schema: JsonSchema, depth: number): string[] {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  return Object.entries(properties).map(
    ([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(property, depth)}`,
  );
}

const cache = new WeakMap<Tool, string>();

/** A one-line signature for messages: `lsp(action: "hover"|"definition", file?: string)`. */
export function toolSignature(tool: Tool): string {
  const cached = cache.get(tool);
  if (cached) return cached;
  const schema = sharedJsonSchema(tool);
  const signature = `${tool.name}(${fieldsOf(schema, 0).join(", ")})`;
  cache.set(tool, signature);
  return signature;
}
