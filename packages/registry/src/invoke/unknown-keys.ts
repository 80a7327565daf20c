import { z } from "zod";
import { closestName } from "./closest-name.js";

type Schema = z.core.$ZodType;

/** Wrappers whose values are their inner type's. */
const wrappers = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function accepts(schema: Schema, value: unknown): boolean {
  try {
    return z.safeParse(schema, value).success;
  } catch {
    return false;
  }
}

function where(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;
}

/**
 * Names inside an argument that its schema does not know: `options[0].descripton (did you mean
 * 'description'?)`. zod drops them without a word, so a misspelt nested field would be lost
 * silently, as a misspelt top-level argument is not. Follows the schema through wrappers, pipes,
 * recursive schemas, arrays and the union branch that takes the value; an object with a catch-all
 * (`z.looseObject`, `.catchall`, `.strict()`, whose own error names the key) or an intersection is
 * left to zod.
 */
export function unknownNestedKeys(schema: Schema, value: unknown, path: string, depth = 0): string[] {
  if (typeof value !== "object" || value === null || depth > 256) return [];
  const def = schema._zod.def;
  if (wrappers.has(def.type)) {
    return unknownNestedKeys((def as z.core.$ZodOptionalDef).innerType, value, path, depth + 1);
  }
  switch (def.type) {
    case "pipe": {
      const pipe = def as z.core.$ZodPipeDef;
      // A transform in front reads the value itself; otherwise the pipe's input schema does.
      return pipe.in._zod.traits.has("$ZodTransform")
        ? []
        : unknownNestedKeys(pipe.in, value, path, depth + 1);
    }
    case "lazy":
      return unknownNestedKeys((schema as z.core.$ZodLazy)._zod.innerType, value, path, depth + 1);
    case "array": {
      if (!Array.isArray(value)) return [];
      const element = (def as z.core.$ZodArrayDef).element;
      return (value as unknown[]).flatMap((item, index) =>
        unknownNestedKeys(element, item, where(path, index), depth + 1),
      );
    }
    case "union": {
      // The branch zod takes: the first that accepts the value. None does: zod's error says why.
      const branch = (def as z.core.$ZodUnionDef).options.find((option) => accepts(option, value));
      return branch ? unknownNestedKeys(branch, value, path, depth + 1) : [];
    }
    case "object": {
      const object = def as z.core.$ZodObjectDef;
      if (object.catchall !== undefined || !isPlainObject(value)) return [];
      const known = Object.keys(object.shape);
      return Object.entries(value).flatMap(([key, inner]) => {
        const field = Object.hasOwn(object.shape, key) ? object.shape[key] : undefined;
        if (field !== undefined) return unknownNestedKeys(field, inner, where(path, key), depth + 1);
        const guess = closestName(key, known);
        return [`unknown argument '${where(path, key)}'${guess ? ` (did you mean '${guess}'?)` : ""}`];
      });
    }
    default:
      return [];
  }
}
