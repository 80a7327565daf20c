import type { z } from "zod";
import { setOwn } from "../objects/set-own.js";
import { isPlainObject } from "../objects/plain-object.js";
import { acceptsOnce, newAcceptance, parses, type Acceptance } from "./accepts.js";

type Schema = z.core.$ZodType;

/** Wrappers whose JSON Schema is their inner type's (zod's input-side export looks through them). */
const wrappers = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
  "catch",
  "promise",
]);

/**
 * What one {@link withoutOmittedNulls} call has worked out, each asked once: a recursive union
 * tries each of its forms on a value, and each form reaches the same values below it, which
 * without this were cleaned and parsed again for every form above them (2^depth for two forms).
 * Whether a schema took a value (the value as given, or a copy cleaned of nulls) is judged from
 * what was judged below it ({@link acceptsOnce}): a parse per object, not of all below it.
 */
interface Walk extends Acceptance {
  /** A union's cleaned value, and the depth it was cleaned at (the walk stops at 256). */
  readonly cleaned: WeakMap<object, Map<Schema, { readonly depth: number; readonly value: unknown }>>;
}

/** The schema zod's input-side JSON Schema export describes for a pipe. */
function pipeInput(def: z.core.$ZodPipeDef): Schema {
  return def.in._zod.traits.has("$ZodTransform") ? def.out : def.in;
}

/**
 * Whether the schema export leaves this object field out of `required`, the way zod decides it:
 * a transform or a catch in front of a field does not make the field optional.
 */
function optionalInExport(field: Schema): boolean {
  const def = field._zod.def;
  if (def.type === "pipe" && (def as z.core.$ZodPipeDef).in._zod.traits.has("$ZodTransform")) {
    return optionalInExport((def as z.core.$ZodPipeDef).out);
  }
  if (def.type === "catch") return optionalInExport((def as z.core.$ZodCatchDef).innerType);
  return field._zod.optin !== undefined;
}

/** Whether `null` is one of the field's own values (so it must reach the tool as `null`). */
function acceptsNull(schema: Schema, depth = 0): boolean {
  const def = schema._zod.def;
  if (depth > 64) return parses(schema, null);
  if (def.type === "null" || def.type === "any" || def.type === "unknown" || def.type === "nullable")
    return true;
  if (wrappers.has(def.type)) return acceptsNull((def as z.core.$ZodOptionalDef).innerType, depth + 1);
  if (def.type === "pipe") return acceptsNull(pipeInput(def as z.core.$ZodPipeDef), depth + 1);
  if (def.type === "lazy") return acceptsNull((schema as z.core.$ZodLazy)._zod.innerType, depth + 1);
  if (def.type === "union") {
    return (def as z.core.$ZodUnionDef).options.some((option) => acceptsNull(option, depth + 1));
  }
  if (def.type === "intersection") {
    const { left, right } = def as z.core.$ZodIntersectionDef;
    return acceptsNull(left, depth + 1) && acceptsNull(right, depth + 1);
  }
  return parses(schema, null);
}

/**
 * True when `null` in this object field means "omitted": the OpenAI strict export made the field
 * nullable because it is optional (see `toStrictSchema`), and `null` is not one of its own values.
 */
export function nullMeansOmitted(field: Schema): boolean {
  return optionalInExport(field) && !acceptsNull(field);
}

function objectWithoutOmittedNulls(
  walk: Walk,
  schema: z.core.$ZodObject,
  value: unknown,
  depth: number,
): unknown {
  if (!isPlainObject(value)) return value;
  const shape = schema._zod.def.shape;
  let result: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (const [index, key] of keys.entries()) {
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const before = value[key];
    let after: unknown = before;
    let omitted = false;
    if (field !== undefined) {
      if (before === null && nullMeansOmitted(field)) omitted = true;
      else after = clean(walk, field, before, depth + 1);
    }
    if (!result && (omitted || after !== before)) {
      result = {};
      for (const earlier of keys.slice(0, index)) setOwn(result, earlier, value[earlier]);
    }
    if (result && !omitted) setOwn(result, key, after);
  }
  return result ?? value;
}

function unionWithoutOmittedNulls(walk: Walk, schema: Schema, value: object, depth: number): unknown {
  let known = walk.cleaned.get(value);
  if (known === undefined) walk.cleaned.set(value, (known = new Map()));
  const done = known.get(schema);
  // Cleaned already, as deep or deeper down than from here: the same answer.
  if (done !== undefined && done.depth <= depth) return done.value;
  const cleaned = unionCleaned(walk, schema._zod.def as z.core.$ZodUnionDef, value, depth);
  known.set(schema, { depth, value: cleaned });
  return cleaned;
}

function unionCleaned(walk: Walk, def: z.core.$ZodUnionDef, value: object, depth: number): unknown {
  let options = def.options;
  const discriminator = (def as Partial<z.core.$ZodDiscriminatedUnionDef>).discriminator;
  if (discriminator !== undefined && isPlainObject(value)) {
    const tag = value[discriminator];
    const matching = options.filter((option) =>
      option._zod.propValues?.[discriminator]?.has(tag as z.core.util.Primitive),
    );
    if (matching.length > 0) options = matching;
  }
  // The first branch that takes the call, as given or with its omitted nulls removed, as zod picks.
  for (const option of options) {
    if (acceptsOnce(walk, option, value)) return value;
    const cleaned = clean(walk, option, value, depth + 1);
    if (cleaned !== value && acceptsOnce(walk, option, cleaned)) return cleaned;
  }
  // None does: a discriminated union's branch is known, so its own mistakes get reported, not the nulls.
  const only = options.length === 1 || discriminator !== undefined ? options[0] : undefined;
  return only ? clean(walk, only, value, depth + 1) : value;
}

/**
 * The value with `null` removed wherever the OpenAI strict export made an optional field nullable:
 * object fields at any depth, following the zod schema through arrays, unions, optionals, defaults,
 * pipes and recursive (lazy) schemas, exactly as the export walks its JSON Schema. Records, tuples
 * and catch-all keys are left as they are: the export never makes anything inside them nullable
 * (strict mode cannot express them; the tool is exported non-strict). Never changes `value`:
 * returns it as it is when nothing is removed, else a copy along the changed path. A union's value
 * is cleaned and parsed once per form, however many forms above it lead to it.
 */
export function withoutOmittedNulls(schema: Schema, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return clean({ ...newAcceptance(), cleaned: new WeakMap() }, schema, value, 0);
}

function clean(walk: Walk, schema: Schema, value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null || depth > 256) return value;
  const def = schema._zod.def;
  if (wrappers.has(def.type)) {
    return clean(walk, (def as z.core.$ZodOptionalDef).innerType, value, depth + 1);
  }
  switch (def.type) {
    case "pipe":
      return clean(walk, pipeInput(def as z.core.$ZodPipeDef), value, depth + 1);
    case "lazy":
      return clean(walk, (schema as z.core.$ZodLazy)._zod.innerType, value, depth + 1);
    case "object":
      return objectWithoutOmittedNulls(walk, schema as z.core.$ZodObject, value, depth);
    case "array": {
      if (!Array.isArray(value)) return value;
      const element = (def as z.core.$ZodArrayDef).element;
      const items = value as unknown[];
      const cleaned = items.map((item) => clean(walk, element, item, depth + 1));
      return cleaned.some((item, index) => item !== items[index]) ? cleaned : value;
    }
    case "union":
      return unionWithoutOmittedNulls(walk, schema, value, depth);
    case "intersection": {
      const { left, right } = def as z.core.$ZodIntersectionDef;
      return clean(walk, right, clean(walk, left, value, depth + 1), depth + 1);
    }
    default:
      return value;
  }
}
