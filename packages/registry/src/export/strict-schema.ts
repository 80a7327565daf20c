import { ToolsError } from "../errors/tools-error.js";
import type { JsonSchema } from "./json-schema.js";
import { setOwn } from "../objects/set-own.js";

/**
 * Keywords OpenAI strict mode cannot honour, with what usually puts them in a tool's schema. The
 * model is constrained to the schema token by token, so every key of every object must be named in
 * advance and every value must have a type.
 */
const unsupportedKeywords: ReadonlyMap<string, string> = new Map([
  ["propertyNames", "a record (a map whose keys are not named in advance: z.record)"],
  ["patternProperties", "a map whose keys follow a pattern (z.looseRecord)"],
  ["prefixItems", "a tuple (z.tuple)"],
  ["additionalItems", "a tuple (z.tuple)"],
  ["not", "a negated schema (z.never)"],
  ["if", "a conditional schema (if/then/else)"],
  ["then", "a conditional schema (if/then/else)"],
  ["else", "a conditional schema (if/then/else)"],
  ["dependencies", "keys that depend on other keys"],
  ["dependentRequired", "keys that depend on other keys"],
  ["dependentSchemas", "keys that depend on other keys"],
  ["unevaluatedProperties", "unevaluatedProperties"],
  ["contains", "an array that must contain a kind of item (contains)"],
]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeList(schema: JsonSchema): unknown[] {
  const type = schema["type"];
  if (Array.isArray(type)) return type;
  return type === undefined ? [] : [type];
}

function unsupported(path: string, what: string, tool: string | undefined): ToolsError {
  const where = path === "" ? "its arguments" : `field '${path}'`;
  return new ToolsError({
    code: "STRICT_SCHEMA_UNSUPPORTED",
    message:
      `${tool === undefined ? "schema" : `tool '${tool}'`}, ${where}: ${what} cannot be expressed in ` +
      "OpenAI strict mode, where every key must be named in advance and every value typed",
    data: { tool, field: path, reason: what },
  });
}

function child(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

/**
 * The same schema, made to accept `null` as well: what strict mode sends for a key the model
 * leaves out (the registry reads that `null` as "omitted").
 */
function nullable(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = { ...schema };
  let valuesListed = false;
  if (Object.hasOwn(schema, "const")) {
    // `const: "x"` would refuse the null the type now allows.
    delete result["const"];
    result["enum"] = [schema["const"], null];
    valuesListed = true;
  } else if (Array.isArray(schema["enum"])) {
    const values = schema["enum"] as unknown[];
    result["enum"] = values.includes(null) ? values : [...values, null];
    valuesListed = true;
  }
  const type = schema["type"];
  if (typeof type === "string") {
    if (type !== "null") result["type"] = [type, "null"];
    return result;
  }
  if (Array.isArray(type)) {
    if (!type.includes("null")) result["type"] = [...(type as unknown[]), "null"];
    return result;
  }
  if (valuesListed) return result;
  if (Array.isArray(schema["anyOf"])) {
    const branches = schema["anyOf"] as JsonSchema[];
    const hasNull = branches.some((branch) => isSchema(branch) && branch["type"] === "null");
    return hasNull ? result : { ...schema, anyOf: [...branches, { type: "null" }] };
  }
  const { description, ...rest } = schema;
  const wrapped: JsonSchema = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) wrapped["description"] = description;
  return wrapped;
}

function convert(node: unknown, path: string, tool: string | undefined): JsonSchema {
  if (!isSchema(node)) throw unsupported(path, "a schema that is only true or false", tool);
  let schema: JsonSchema = { ...node };
  // Strict mode accepts no defaults; the tool's own schema still applies them.
  delete schema["default"];

  for (const keyword of Object.keys(schema)) {
    const what = unsupportedKeywords.get(keyword);
    if (what !== undefined) throw unsupported(path, what, tool);
  }
  if (Array.isArray(schema["items"])) throw unsupported(path, "a tuple (z.tuple)", tool);
  const extra = schema["additionalProperties"];
  if (extra !== undefined && extra !== false) {
    throw unsupported(
      path,
      "an object that takes keys besides its named ones (z.record, .catchall, .passthrough, z.looseObject)",
      tool,
    );
  }

  for (const key of ["definitions", "$defs"]) {
    const definitions = schema[key];
    if (!isSchema(definitions)) continue;
    const converted: JsonSchema = {};
    for (const [name, definition] of Object.entries(definitions)) {
      setOwn(converted, name, convert(definition, `${key}/${name}`, tool));
    }
    schema[key] = converted;
  }

  if (typeof schema["$ref"] === "string") {
    const { $ref, definitions, $defs, ...siblings } = schema;
    // A `$ref` with keys beside it (a description) is refused by strict mode: the reference goes
    // into a one-branch anyOf and the keys stay outside it.
    if (Object.keys(siblings).length > 0) {
      if (
        Object.hasOwn(siblings, "anyOf") ||
        Object.hasOwn(siblings, "oneOf") ||
        Object.hasOwn(siblings, "allOf")
      ) {
        throw unsupported(path, "a reference combined with anyOf, oneOf or allOf", tool);
      }
      schema = { ...siblings, anyOf: [{ $ref }] };
      if (definitions !== undefined) schema["definitions"] = definitions;
      if ($defs !== undefined) schema["$defs"] = $defs;
    }
  }

  if (Array.isArray(schema["allOf"])) {
    const parts = schema["allOf"] as unknown[];
    // zod writes an optional reference as a one-part allOf; several parts are an intersection
    // zod could not fold into one object, which strict mode cannot express.
    if (parts.length !== 1 || Object.hasOwn(schema, "anyOf") || Object.hasOwn(schema, "oneOf")) {
      throw unsupported(path, "an intersection of several schemas (allOf)", tool);
    }
    delete schema["allOf"];
    schema["anyOf"] = parts;
  }
  if (Array.isArray(schema["oneOf"])) {
    if (Object.hasOwn(schema, "anyOf")) throw unsupported(path, "oneOf beside anyOf", tool);
    // Strict mode refuses oneOf (zod writes it for discriminated unions); anyOf lets the same calls
    // through, and the registry's validation still holds each call to exactly one branch.
    schema["anyOf"] = schema["oneOf"];
    delete schema["oneOf"];
  }
  if (Array.isArray(schema["anyOf"])) {
    schema["anyOf"] = (schema["anyOf"] as unknown[]).map((branch) => convert(branch, path, tool));
  }

  const types = typeList(schema);
  if (types.includes("object")) {
    const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
    const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : []);
    const strictProperties: JsonSchema = {};
    for (const [name, property] of Object.entries(properties)) {
      const converted = convert(property, child(path, name), tool);
      setOwn(strictProperties, name, required.has(name) ? converted : nullable(converted));
    }
    schema["properties"] = strictProperties;
    schema["required"] = Object.keys(strictProperties);
    schema["additionalProperties"] = false;
  }
  if (types.includes("array")) {
    if (!isSchema(schema["items"])) throw unsupported(path, "an array of values of any type", tool);
    schema["items"] = convert(schema["items"], `${path}[]`, tool);
  }

  const typed = ["type", "anyOf", "$ref", "enum", "const"].some((key) => Object.hasOwn(schema, key));
  if (!typed) {
    throw unsupported(
      path,
      "a value of any type (z.unknown, z.any, or a type JSON Schema cannot describe: z.map, z.set, z.custom)",
      tool,
    );
  }
  return schema;
}

/**
 * OpenAI strict mode: every object lists all its keys in `required` and forbids extra ones, at
 * every level, shared definitions (`definitions` / `$defs`) included; a key that was optional
 * becomes nullable instead (the registry reads `null` as "omitted", at any depth). Defaults are
 * dropped, `oneOf` becomes `anyOf`, and a `$ref` with keys beside it is wrapped, since strict mode
 * refuses them. Returns a new schema; the one given is not changed.
 *
 * Throws a `ToolsError` with code `STRICT_SCHEMA_UNSUPPORTED`, naming the tool (when given) and the
 * field, for what strict mode cannot express: records and other maps with keys not named in
 * advance (`z.record`, `.catchall`, `z.looseObject`), tuples, values of any type (`z.unknown`,
 * `z.any`), intersections zod could not fold, and conditional or negated schemas.
 * {@link exportTools} catches it and exports that one tool non-strict (`strict: false`).
 */
export function toStrictSchema(schema: JsonSchema, toolName?: string): JsonSchema {
  return convert(structuredClone(schema), "", toolName);
}

/** True for the error {@link toStrictSchema} throws for a schema strict mode cannot express. */
export function isStrictSchemaUnsupported(error: unknown): error is ToolsError {
  return ToolsError.isInstance(error) && error.code === "STRICT_SCHEMA_UNSUPPORTED";
}
