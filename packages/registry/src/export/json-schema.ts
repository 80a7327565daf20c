import { z } from "zod";
import type { Tool } from "../tool/define-tool.js";

/** A JSON Schema object (draft-07), as plain data. */
export type JsonSchema = { [key: string]: unknown };

const cache = new WeakMap<Tool, JsonSchema>();

type Metadata = Record<string, unknown>;

/**
 * A schema's `.describe()` / `.meta()` texts, wherever its zod copy keeps them. zod 4 up to 4.1
 * keeps them in a registry of its own module, so a harness whose zod is another copy than ours
 * (another version, installed beside this package's) would export its tools without a single
 * field description if only our copy's registry were read; such a schema's own `meta()` reads its
 * copy's. Ours first: zod/mini schemas have no `meta()`.
 */
const schemaMetadata = {
  get(schema: z.core.$ZodType): Metadata | undefined {
    const ours = z.globalRegistry.get(schema) as Metadata | undefined;
    if (ours !== undefined) return ours;
    const meta = (schema as { meta?: unknown }).meta;
    if (typeof meta !== "function") return undefined;
    try {
      const theirs: unknown = meta.call(schema);
      return typeof theirs === "object" && theirs !== null ? (theirs as Metadata) : undefined;
    } catch {
      return undefined;
    }
  },
};

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The registry's own copy of a tool's JSON Schema, computed once per tool and deeply frozen:
 * read it, never hand it out (callers get {@link toolJsonSchema}'s copies).
 * @internal
 */
export function sharedJsonSchema(tool: Tool): JsonSchema {
  const cached = cache.get(tool);
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.input, {
    target: "draft-07",
    io: "input",
    unrepresentable: "any",
    metadata: schemaMetadata as unknown as z.core.$ZodRegistry<z.core.JSONSchemaMeta>,
  }) as JsonSchema;
  delete schema["$schema"];
  // The registry refuses unknown argument names (with a did-you-mean), so say so in the schema.
  schema["additionalProperties"] = false;
  cache.set(tool, deepFreeze(schema));
  return schema;
}

/**
 * The tool's arguments as JSON Schema (draft-07, input side: what the model must send). Computed
 * once per tool; every call returns a fresh deep copy, so a caller may change what it gets (a
 * harness converting it in place) without changing later exports.
 */
export function toolJsonSchema(tool: Tool): JsonSchema {
  return structuredClone(sharedJsonSchema(tool));
}
