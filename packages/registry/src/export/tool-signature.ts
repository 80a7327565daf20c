import type { Tool } from "../tool/define-tool.js";
import { sharedJsonSchema, type JsonSchema } from "./json-schema.js";

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema["enum"])) return schema["enum"].map((value) => JSON.stringify(value)).join("|");
  if (schema["const"] !== undefined) return JSON.stringify(schema["const"]);
  const type = schema["type"];
  if (type === "array") {
    const items = schema["items"];
    return `${items && typeof items === "object" ? typeOf(items as JsonSchema) : "any"}[]`;
  }
  if (Array.isArray(type)) return type.join("|");
  if (typeof type === "string") return type;
  const union = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map(typeOf).join("|");
  return "any";
}

const cache = new WeakMap<Tool, string>();

/** A one-line signature for messages: `lsp(action: "hover"|"definition", file?: string)`. */
export function toolSignature(tool: Tool): string {
  const cached = cache.get(tool);
  if (cached) return cached;
  const schema = sharedJsonSchema(tool);
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const parts = Object.entries(properties).map(
    ([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(property)}`,
  );
  const signature = `${tool.name}(${parts.join(", ")})`;
  cache.set(tool, signature);
  return signature;
}
