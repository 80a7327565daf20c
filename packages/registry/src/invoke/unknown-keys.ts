import type { z } from "zod";
import { closestName } from "./closest-name.js";
import { countNoun } from "../result/bounded-output.js";
import { isPlainObject } from "../objects/plain-object.js";
import { acceptsOnce, newAcceptance, type Acceptance } from "./accepts.js";

type Schema = z.core.$ZodType;

/**
 * Wrappers whose values are their inner type's. Not `.catch()`: it takes any value, its fallback
 * standing in for one its inner type refuses, so nothing in the value is unknown to it.
 */
const wrappers = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly"]);

/** Kinds that never take an object or an array (unless coerced). */
const scalars = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "literal",
  "enum",
  "null",
  "undefined",
  "void",
  "date",
  "symbol",
  "nan",
  "never",
  "template_literal",
  "file",
]);

/** At most this many unknown names are listed; the rest are counted. */
const listedUnknown = 10;

/** The union form an object was reached through, to say a key belongs to another form. */
interface Form {
  readonly index: number;
  readonly count: number;
  readonly otherKeys: ReadonlySet<string>;
}

/** Whether a schema took a value, asked once per pair and judged from the answers below it. */
type Walk = Acceptance;

/** The schema under wrappers, lazy schemas and a pipe's input. */
function unwrapped(schema: Schema, depth = 0): Schema {
  const def = schema._zod.def;
  if (depth > 64) return schema;
  if (wrappers.has(def.type)) return unwrapped((def as z.core.$ZodOptionalDef).innerType, depth + 1);
  if (def.type === "lazy") return unwrapped((schema as z.core.$ZodLazy)._zod.innerType, depth + 1);
  if (def.type === "pipe") return unwrapped((def as z.core.$ZodPipeDef).in, depth + 1);
  return schema;
}

/** Whether `schema` could take an object or an array at all (a scalar never does). */
function takesObjects(schema: Schema): boolean {
  const def = unwrapped(schema)._zod.def as { type: string; coerce?: boolean };
  return !scalars.has(def.type) || def.coerce === true;
}

function objectKeys(schema: Schema): string[] {
  const inner = unwrapped(schema);
  return inner._zod.def.type === "object" ? Object.keys((inner._zod.def as z.core.$ZodObjectDef).shape) : [];
}

/**
 * The union form zod takes for `value`: for a discriminated union the one its discriminator
 * names; otherwise the first that accepts it, parsed only when more than one could.
 */
function unionBranch(walk: Walk, schema: Schema, value: object): Schema | undefined {
  const def = schema._zod.def as z.core.$ZodDiscriminatedUnionDef;
  if (typeof def.discriminator === "string" && isPlainObject(value)) {
    const tag = value[def.discriminator];
    return def.options.find((option) => option._zod.propValues?.[def.discriminator]?.has(tag as never));
  }
  const candidates = def.options.filter(takesObjects);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((option) => acceptsOnce(walk, option, value));
}

function where(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;
}

function walkKeys(
  walk: Walk,
  schema: Schema,
  value: unknown,
  path: string,
  depth: number,
  form?: Form,
): string[] {
  if (typeof value !== "object" || value === null || depth > 256) return [];
  const def = schema._zod.def;
  if (wrappers.has(def.type)) {
    return walkKeys(walk, (def as z.core.$ZodOptionalDef).innerType, value, path, depth + 1, form);
  }
  switch (def.type) {
    case "pipe": {
      const pipe = def as z.core.$ZodPipeDef;
      // A transform in front reads the value itself; otherwise the pipe's input schema does.
      return pipe.in._zod.traits.has("$ZodTransform")
        ? []
        : walkKeys(walk, pipe.in, value, path, depth + 1, form);
    }
    case "lazy":
      return walkKeys(walk, (schema as z.core.$ZodLazy)._zod.innerType, value, path, depth + 1, form);
    case "array": {
      if (!Array.isArray(value)) return [];
      const element = (def as z.core.$ZodArrayDef).element;
      return (value as unknown[]).flatMap((item, index) =>
        walkKeys(walk, element, item, where(path, index), depth + 1),
      );
    }
    case "union": {
      // None takes it: zod's error says why.
      const options = (def as z.core.$ZodUnionDef).options;
      const branch = unionBranch(walk, schema, value);
      if (branch === undefined) return [];
      const otherKeys = new Set(options.filter((option) => option !== branch).flatMap(objectKeys));
      const taken: Form = { index: options.indexOf(branch), count: options.length, otherKeys };
      return walkKeys(walk, branch, value, path, depth + 1, taken);
    }
    case "object": {
      const object = def as z.core.$ZodObjectDef;
      if (object.catchall !== undefined || !isPlainObject(value)) return [];
      const known = Object.keys(object.shape);
      return Object.entries(value).flatMap(([key, inner]) => {
        const field = Object.hasOwn(object.shape, key) ? object.shape[key] : undefined;
        if (field !== undefined) return walkKeys(walk, field, inner, where(path, key), depth + 1);
        if (form?.otherKeys.has(key)) {
          const matched = `(${form.index + 1}) { ${known.join(", ")} }`;
          return [
            `unknown argument '${where(path, key)}': its value matched form ${matched} of ${form.count}, which does not take '${key}'`,
          ];
        }
        const guess = closestName(key, known);
        return [`unknown argument '${where(path, key)}'${guess ? ` (did you mean '${guess}'?)` : ""}`];
      });
    }
    default:
      return [];
  }
}

/**
 * Names inside an argument that its schema does not know: `options[0].descripton (did you mean
 * 'description'?)`. zod drops them without a word, so a misspelt nested field would be lost
 * silently, as a misspelt top-level argument is not. Follows the schema through wrappers, pipes,
 * recursive schemas, arrays and the union form that takes the value; an object with a catch-all
 * (`z.looseObject`, `.catchall`, `.strict()`, whose own error names the key), an intersection or
 * a `.catch()` is left to zod.
 */
export function unknownNestedKeys(schema: Schema, value: unknown, path: string): string[] {
  return walkKeys(newAcceptance(), schema, value, path, 0);
}

/** The first few unknown names, and how many more there are. */
export function listedUnknownNames(problems: readonly string[]): string[] {
  if (problems.length <= listedUnknown) return [...problems];
  const rest = problems.length - listedUnknown;
  return [...problems.slice(0, listedUnknown), `and ${rest} more unknown ${countNoun(rest, "arguments")}`];
}
