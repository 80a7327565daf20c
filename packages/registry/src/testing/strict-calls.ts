// Helpers for this package's tests of the OpenAI strict export (not exported from the package).
import type { JsonSchema } from "../export/json-schema.js";

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(root: JsonSchema, ref: string): JsonSchema {
  if (ref === "#") return root;
  const [, container, name] = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref) ?? [];
  const definitions = container ? root[container] : undefined;
  const target = isSchema(definitions) && name ? definitions[name] : undefined;
  if (!isSchema(target)) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

function types(schema: JsonSchema): unknown[] {
  const type = schema["type"];
  return Array.isArray(type) ? type : type === undefined ? [] : [type];
}

function isStructure(root: JsonSchema, schema: JsonSchema): boolean {
  if (typeof schema["$ref"] === "string") return isStructure(root, resolve(root, schema["$ref"]));
  const kinds = types(schema);
  return kinds.includes("object") || kinds.includes("array");
}

/**
 * A call as OpenAI strict mode may send it for this (strict) schema. `shallow`: the model leaves
 * out every field it can (`null` wherever null is allowed). `deep`: it fills in every object and
 * array it may leave out (one item each, until `depth` runs out) and leaves out every other field,
 * so nulls reach every level. Other values are the smallest of their first type.
 */
export function strictCall(
  root: JsonSchema,
  mode: "shallow" | "deep",
  schema: JsonSchema = root,
  depth = 4,
): unknown {
  if (typeof schema["$ref"] === "string") return strictCall(root, mode, resolve(root, schema["$ref"]), depth);
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf)) {
    const branches = anyOf.filter(isSchema);
    const values = branches.filter((branch) => !types(branch).includes("null"));
    const structure = values.find((branch) => isStructure(root, branch));
    const nullable = values.length < branches.length;
    if (nullable && !(mode === "deep" && structure && depth > 0)) return null;
    return strictCall(root, mode, structure ?? values[0] ?? {}, depth - 1);
  }
  if (Array.isArray(schema["enum"])) {
    const values = schema["enum"] as unknown[];
    return values.includes(null) ? null : values[0];
  }
  if (schema["const"] !== undefined) return schema["const"];
  const kinds = types(schema);
  if (kinds.includes("null") && !(mode === "deep" && isStructure(root, schema) && depth > 0)) return null;
  const kind = kinds.find((type) => type !== "null");
  switch (kind) {
    case "object": {
      const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          strictCall(root, mode, property as JsonSchema, depth),
        ]),
      );
    }
    case "array":
      return depth > 0 && isSchema(schema["items"])
        ? [strictCall(root, mode, schema["items"], depth - 1)]
        : [];
    case "string":
      return "text";
    case "number":
    case "integer":
      return typeof schema["minimum"] === "number" ? schema["minimum"] : 1;
    case "boolean":
      return true;
    default:
      throw new Error(`no value for schema ${JSON.stringify(schema)}`);
  }
}

/**
 * Every rule of OpenAI strict mode this schema breaks, as `path: rule` lines (empty when none): each
 * object, in shared definitions too, lists all its keys in `required` and has
 * `additionalProperties: false`; every schema is typed; no default, oneOf, allOf, records, tuples,
 * and no `$ref` with keys beside it.
 */
export function strictViolations(schema: unknown, path = "#"): string[] {
  if (!isSchema(schema)) return [`${path}: not a schema object`];
  const problems: string[] = [];
  for (const keyword of [
    "default",
    "oneOf",
    "allOf",
    "not",
    "propertyNames",
    "patternProperties",
    "prefixItems",
  ]) {
    if (Object.hasOwn(schema, keyword)) problems.push(`${path}: has ${keyword}`);
  }
  if (typeof schema["$ref"] === "string") {
    const siblings = Object.keys(schema).filter(
      (key) => key !== "$ref" && key !== "definitions" && key !== "$defs",
    );
    if (siblings.length > 0) problems.push(`${path}: $ref beside ${siblings.join(", ")}`);
  }
  if (!["type", "anyOf", "$ref", "enum", "const"].some((key) => Object.hasOwn(schema, key))) {
    problems.push(`${path}: untyped`);
  }
  if (types(schema).includes("object")) {
    const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
    const required = Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : [];
    if (schema["additionalProperties"] !== false) problems.push(`${path}: additionalProperties is not false`);
    const missing = Object.keys(properties).filter((name) => !required.includes(name));
    if (missing.length > 0) problems.push(`${path}: not required: ${missing.join(", ")}`);
    for (const [name, property] of Object.entries(properties)) {
      problems.push(...strictViolations(property, `${path}/properties/${name}`));
    }
  }
  if (Object.hasOwn(schema, "items")) problems.push(...strictViolations(schema["items"], `${path}/items`));
  if (Array.isArray(schema["anyOf"])) {
    schema["anyOf"].forEach((branch, index) =>
      problems.push(...strictViolations(branch, `${path}/anyOf/${index}`)),
    );
  }
  for (const container of ["definitions", "$defs"]) {
    const definitions = schema[container];
    if (!isSchema(definitions)) continue;
    for (const [name, definition] of Object.entries(definitions)) {
      problems.push(...strictViolations(definition, `${path}/${container}/${name}`));
    }
  }
  return problems;
}
