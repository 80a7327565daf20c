import { z } from "zod";
import { isPlainObject } from "../objects/plain-object.js";
import { setOwn } from "../objects/set-own.js";

type Schema = z.core.$ZodType;

/** Whether zod's own parse of `value` with `schema` succeeds (false for one that needs an async parse). */
export function parses(schema: Schema, value: unknown): boolean {
  try {
    return z.safeParse(schema, value).success;
  } catch {
    // An asynchronous refinement cannot answer here; the tool's own parse will report it.
    return false;
  }
}

/**
 * What one walk over a value has learnt of which schemas take which of its objects and arrays:
 * asked again for the same pair, the answer is remembered (a walk never changes a value).
 */
export interface Acceptance {
  readonly accepted: WeakMap<object, Map<Schema, boolean>>;
  /**
   * For a schema, an object or array it took that holds no object or array: a stand-in for a
   * field that takes none of the plain values (a required recursive field, such as an
   * expression's operand).
   */
  readonly flat: WeakMap<Schema, object>;
}

export function newAcceptance(): Acceptance {
  return { accepted: new WeakMap(), flat: new WeakMap() };
}

/** Values a field may take instead of an object it was found to take: cheap for zod to parse. */
const standIns: readonly unknown[] = [undefined, null, false, 0, "", Object.freeze([]), Object.freeze({})];
const noStandIn = Symbol("no stand-in");

/**
 * Whether `schema` takes `value`, as `z.safeParse(schema, value).success` says, asking zod about
 * each object and array of the value once per schema: a union, object or array that holds
 * objects already judged (a recursive schema's levels below) is judged from those answers, and
 * zod parses only the level itself. Judging each level of a nested value with a whole parse of
 * what is below it cost depth² parses; this costs one per object and schema.
 *
 * The same answer as zod's, kind by kind (anything else, and any schema with checks of its own,
 * is parsed whole): a wrapper (optional, nullable, default, prefault, readonly) hands an object to
 * its inner type as it is; a lazy schema is its inner type; a union takes a value when one of its
 * forms does (an exclusive one is parsed whole), a discriminated union when the one form zod's
 * map of its tags names does (one zod cannot map is parsed whole: zod throws, so no); an array
 * when every item is taken; an object without checks when every field takes its value (but one
 * named `__proto__`, which zod's parse passes over) — a field that refuses fails it, and zod
 * then parses the level with each object field found taken replaced by a plain value that field
 * takes (`undefined` for an optional one; else an object holding no objects it took before, such
 * as an expression's literal), so the object's own rules (required keys, unknown keys, catch-all)
 * are zod's.
 */
export function acceptsOnce(walk: Acceptance, schema: Schema, value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null) return parses(schema, value);
  let known = walk.accepted.get(value);
  if (known === undefined) walk.accepted.set(value, (known = new Map()));
  let result = known.get(schema);
  if (result === undefined) {
    known.set(schema, (result = judged(walk, schema, value, depth)));
    if (result && !walk.flat.has(schema) && holdsNoObjects(value)) walk.flat.set(schema, value);
  }
  return result;
}

function holdsNoObjects(value: object): boolean {
  return Object.values(value).every((inner) => typeof inner !== "object" || inner === null);
}

function judged(walk: Acceptance, schema: Schema, value: object, depth: number): boolean {
  const def = schema._zod.def as z.core.$ZodTypeDef & { checks?: readonly unknown[] };
  // Past this depth (or around a cycle) zod parses the rest whole.
  if (depth > 256 || (def.checks?.length ?? 0) > 0) return parses(schema, value);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
      // Each runs its inner type on a value that is neither undefined nor null, and fails when it does.
      return acceptsOnce(walk, (def as z.core.$ZodOptionalDef).innerType, value, depth + 1);
    case "lazy":
      return acceptsOnce(walk, (schema as z.core.$ZodLazy)._zod.innerType, value, depth + 1);
    case "union":
      return unionTakes(walk, schema, def as z.core.$ZodDiscriminatedUnionDef, value, depth);
    case "array": {
      if (!Array.isArray(value)) return false;
      const element = (def as z.core.$ZodArrayDef).element;
      const items = value as unknown[];
      for (let index = 0; index < items.length; index += 1)
        if (!acceptsOnce(walk, element, items[index], depth + 1)) return false;
      return true;
    }
    case "object":
      return objectTakes(walk, schema, def as z.core.$ZodObjectDef, value, depth);
    default:
      return parses(schema, value);
  }
}

function unionTakes(
  walk: Acceptance,
  schema: Schema,
  def: z.core.$ZodDiscriminatedUnionDef,
  value: object,
  depth: number,
): boolean {
  const options = def.options;
  if (typeof def.discriminator === "string") {
    // zod parses with the one form its map of tags names (a union it cannot map is its to refuse).
    const tag = isPlainObject(value) ? value[def.discriminator] : undefined;
    const named = tag === undefined ? undefined : formsByTag(schema, def)?.get(tag);
    return named ? acceptsOnce(walk, named, value, depth + 1) : parses(schema, value);
  }
  // An exclusive union (z.xor) fails when two forms take the value.
  if ((def as { inclusive?: boolean }).inclusive === false) return parses(schema, value);
  return options.some((option) => acceptsOnce(walk, option, value, depth + 1));
}

/** A discriminated union's forms by tag, once per union; its map is zod's. */
const tagMaps = new WeakMap<Schema, ReadonlyMap<unknown, Schema | null>>();

/**
 * The form of each tag, as zod's discriminated union maps them (a tag two forms may leave out
 * names none); `undefined` when zod cannot map them (a form without literal tags, a tag named
 * twice), and its parse throws.
 */
function formsByTag(
  schema: Schema,
  def: z.core.$ZodDiscriminatedUnionDef,
): ReadonlyMap<unknown, Schema | null> | undefined {
  const known = tagMaps.get(schema);
  if (known !== undefined) return known;
  const map = new Map<unknown, Schema | null>();
  try {
    for (const option of def.options) {
      const tags = option._zod.propValues?.[def.discriminator];
      if (tags === undefined || tags.size === 0) return undefined;
      for (const tag of tags) {
        if (!map.has(tag)) map.set(tag, option);
        else if (tag === undefined) map.set(tag, null);
        else return undefined;
      }
    }
  } catch {
    // A form's own tags could not be read (itself a union zod cannot map).
    return undefined;
  }
  tagMaps.set(schema, map);
  return map;
}

function objectTakes(
  walk: Acceptance,
  schema: Schema,
  def: z.core.$ZodObjectDef,
  value: object,
  depth: number,
): boolean {
  if (!isPlainObject(value) || !onlyData(value)) return parses(schema, value);
  const shape = def.shape;
  let level: Record<string, unknown> | undefined;
  for (const key of Object.keys(shape)) {
    // zod's parse passes over a field named __proto__ (the level's parse below leaves it to zod).
    if (key === "__proto__" || !Object.hasOwn(value, key)) continue;
    const inner = value[key];
    if (typeof inner !== "object" || inner === null) continue;
    const field = shape[key]!;
    if (!acceptsOnce(walk, field, inner, depth + 1)) return false;
    const standIn = standInFor(walk, field);
    if (standIn === noStandIn) continue;
    if (level === undefined) {
      // Same prototype, so that `key in value` answers alike for every key.
      level = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
      for (const own of Object.keys(value)) setOwn(level, own, value[own]);
    }
    setOwn(level, key, standIn);
  }
  return parses(schema, level ?? value);
}

/** Whether every own property of `value` is an enumerable one holding a value under a string key (as JSON's). */
function onlyData(value: object): boolean {
  return Reflect.ownKeys(value).every((key) => {
    if (typeof key !== "string") return false;
    const property = Object.getOwnPropertyDescriptor(value, key);
    return property !== undefined && property.enumerable === true && "value" in property;
  });
}

/**
 * The first of {@link standIns} that `field` takes, else a flat value it took in this walk
 * ({@link Acceptance.flat}), or {@link noStandIn}: zod then parses the field's value again.
 */
function standInFor(walk: Acceptance, field: Schema): unknown {
  for (const standIn of standIns) if (parses(field, standIn)) return standIn;
  return walk.flat.get(field) ?? noStandIn;
}
