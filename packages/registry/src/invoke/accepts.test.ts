import { z } from "zod";
import { describe, expect, it } from "vitest";
import { acceptsOnce, newAcceptance } from "./accepts.js";

// acceptsOnce judges a nested value level by level from what it judged below; its answer must
// be zod's own, on every kind of schema it looks into and those it leaves to zod.

/** A small seeded generator (mulberry32): the same values on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const Node: z.ZodType = z.union([
  z.object({
    name: z.string(),
    note: z.string().optional(),
    get child() {
      return Node.optional();
    },
  }),
  z.object({
    id: z.number(),
    tag: z.string().optional(),
    get child() {
      return Node.nullable().optional();
    },
  }),
]);
const Tree: z.ZodType = z.object({
  value: z.number(),
  children: z.array(z.lazy(() => Tree)).default([]),
});
const Expr: z.ZodType = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("num"), value: z.number() }),
  z.object({ kind: z.literal("add"), left: z.lazy(() => Expr), right: z.lazy(() => Expr) }),
  z.object({ kind: z.literal("neg"), of: z.lazy(() => Expr).nullable() }),
]);
const Strict: z.ZodType = z.strictObject({ a: z.number().optional(), next: z.lazy(() => Strict).optional() });
const Checked: z.ZodType = z
  .object({
    n: z.number(),
    get child() {
      return Checked.optional();
    },
  })
  .refine((value) => value.child === undefined || (value.child as { n: number }).n < value.n);
const RefinedUnion: z.ZodType = z
  .union([
    z.object({
      a: z.number(),
      get next() {
        return RefinedUnion.optional();
      },
    }),
    z.object({
      b: z.number(),
      get next() {
        return RefinedUnion.optional();
      },
    }),
  ])
  .refine((value) => !("a" in value) || value.a !== 13);
const Exclusive: z.ZodType = z.xor([
  z.object({
    a: z.number(),
    get next() {
      return Exclusive.optional();
    },
  }),
  z.object({
    b: z.number(),
    get next() {
      return Exclusive.optional();
    },
  }),
]);
const Wrapped: z.ZodType = z.object({
  v: z.number().optional(),
  get w() {
    return Wrapped.default({ v: 1 }).readonly();
  },
  get p() {
    return Wrapped.nullable().optional();
  },
  get r() {
    return z
      .object({
        v: z.number(),
        get inner() {
          return Wrapped.optional();
        },
      })
      .prefault({ v: 2 });
  },
});
const Loose: z.ZodType = z
  .object({
    k: z.string().optional(),
    get next() {
      return Loose.optional();
    },
  })
  .catchall(z.number());
const Piped: z.ZodType = z.object({
  k: z.number().optional(),
  next: z
    .lazy(() => Piped)
    .transform((value) => value)
    .optional(),
});
const Arith: z.ZodType = z.union([
  z.object({
    op: z.enum(["+", "-"]),
    get l() {
      return Arith;
    },
    get r() {
      return Arith;
    },
  }),
  z.number(),
  z.string(),
]);
const NonEmpty: z.ZodType = z.object({
  x: z.number().optional(),
  items: z
    .array(z.lazy(() => NonEmpty))
    .min(1)
    .optional(),
});
const Tuple: z.ZodType = z.object({
  pair: z.tuple([z.lazy(() => Tuple), z.number()]).optional(),
  n: z.number().optional(),
});

const schemas = {
  Node,
  Tree,
  Expr,
  Strict,
  Checked,
  RefinedUnion,
  Exclusive,
  Wrapped,
  Loose,
  Piped,
  Arith,
  NonEmpty,
  Tuple,
};
const keys = [
  "name",
  "note",
  "id",
  "tag",
  "child",
  "value",
  "children",
  "kind",
  "left",
  "right",
  "of",
  "a",
  "b",
  "next",
  "n",
  "v",
  "w",
  "p",
  "k",
  "op",
  "l",
  "r",
  "x",
  "items",
  "pair",
  "extra",
  "__proto__",
];
const scalars: Json[] = [null, 0, 1, 13, -2, "", "num", "add", "neg", "+", "s", true, false];

/** A random value: objects of keys the schemas use (and some they do not), nested up to `depth`. */
function randomValue(random: () => number, depth: number): Json {
  const roll = random();
  if (depth <= 0 || roll < 0.3) return scalars[Math.floor(random() * scalars.length)]!;
  if (roll < 0.45)
    return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth - 1));
  const object: Record<string, Json> = {};
  const count = 1 + Math.floor(random() * 4);
  for (let index = 0; index < count; index += 1) {
    Object.defineProperty(object, keys[Math.floor(random() * keys.length)]!, {
      value: randomValue(random, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** Values that fit the schema's shape often: a chain of `levels` levels of one key, mutated at random. */
function chain(random: () => number, levels: number, level: (inner: Json | undefined) => Json): Json {
  let value: Json | undefined;
  for (let index = 0; index < levels; index += 1) value = level(value);
  return mutate(random, value!);
}

function mutate(random: () => number, value: Json): Json {
  if (typeof value !== "object" || value === null) return value;
  if (random() < 0.1) return randomValue(random, 2);
  if (Array.isArray(value)) return value.map((item) => mutate(random, item));
  const copy: Record<string, Json> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (random() < 0.04) continue;
    copy[key] = random() < 0.04 ? null : mutate(random, inner);
  }
  if (random() < 0.04) copy.extra = 1;
  return copy;
}

const levelsOf: Record<keyof typeof schemas, (inner: Json | undefined) => Json> = {
  Node: (inner) => ({ id: 1, ...(inner === undefined ? {} : { child: inner }) }),
  Tree: (inner) => ({ value: 1, children: inner === undefined ? [] : [inner, { value: 2 }] }),
  Expr: (inner): Json =>
    inner === undefined
      ? { kind: "num", value: 1 }
      : { kind: "add", left: inner, right: { kind: "neg", of: inner } },
  Strict: (inner) => ({ a: 1, ...(inner === undefined ? {} : { next: inner }) }),
  Checked: (inner) => ({
    n: 100 - (inner === undefined ? 0 : 1),
    ...(inner === undefined ? {} : { child: inner }),
  }),
  RefinedUnion: (inner) => ({ a: 12, ...(inner === undefined ? {} : { next: inner }) }),
  Exclusive: (inner) => ({ a: 1, ...(inner === undefined ? {} : { next: inner }) }),
  Wrapped: (inner) => ({ v: 1, ...(inner === undefined ? {} : { w: inner, p: inner, r: { v: 3, inner } }) }),
  Loose: (inner) => ({ k: "s", z: 1, ...(inner === undefined ? {} : { next: inner }) }),
  Piped: (inner) => ({ k: 1, ...(inner === undefined ? {} : { next: inner }) }),
  Arith: (inner) => (inner === undefined ? 1 : { op: "+", l: inner, r: "s" }),
  NonEmpty: (inner) => ({ x: 1, ...(inner === undefined ? {} : { items: [inner] }) }),
  Tuple: (inner) => ({ n: 1, ...(inner === undefined ? {} : { pair: [inner, 1] }) }),
};

describe("acceptsOnce", () => {
  it("answers as zod's own parse on many shapes of schema and value", () => {
    const random = seeded(20261207);
    for (const [name, schema] of Object.entries(schemas) as [keyof typeof schemas, z.ZodType][]) {
      let accepted = 0;
      let refused = 0;
      for (let sample = 0; sample < 300; sample += 1) {
        const value =
          sample % 3 === 0
            ? randomValue(random, 6)
            : chain(random, 1 + Math.floor(random() * 8), levelsOf[name]);
        const expected = z.safeParse(schema, value).success;
        expect(acceptsOnce(newAcceptance(), schema, value), `${name}: ${JSON.stringify(value)}`).toBe(
          expected,
        );
        if (expected) accepted += 1;
        else refused += 1;
      }
      // Both answers come up often enough for the comparison to mean something.
      expect(accepted, name).toBeGreaterThan(20);
      expect(refused, name).toBeGreaterThan(20);
    }
  });

  it("answers as zod's own parse for a field named __proto__, which zod's object parse passes over", () => {
    const Proto = z.object({ ["__proto__"]: z.number(), a: z.object({ x: z.number() }) });
    const StrictProto = z.strictObject({ ["__proto__"]: z.object({ y: z.number() }) });
    const values = [
      '{"__proto__": {}, "a": {"x": 1}}',
      '{"__proto__": {"y": 1}, "a": {"x": 1}}',
      '{"__proto__": 1, "a": {"x": 1}}',
      '{"__proto__": {}, "a": {"x": "1"}}',
      '{"__proto__": {"x": 1}}',
      '{"a": {"x": 1}}',
    ].map((text) => JSON.parse(text) as unknown);
    for (const schema of [Proto, StrictProto, z.union([Proto, z.number()])])
      for (const value of values)
        expect(acceptsOnce(newAcceptance(), schema, value), JSON.stringify(value)).toBe(
          z.safeParse(schema, value).success,
        );
  });

  it("answers no, as zod's throwing parse was read, for a discriminated union zod cannot map tags to forms of", () => {
    // A form whose discriminator has no literal value: zod's parse throws when it builds its map.
    const Untagged = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("a"), v: z.object({ n: z.number() }) }),
      z.lazy(() => z.object({ kind: z.string() })),
    ]);
    expect(() => z.safeParse(Untagged, { kind: "a", v: { n: 1 } })).toThrow(
      /Invalid discriminated union option/,
    );
    expect(acceptsOnce(newAcceptance(), Untagged, { kind: "a", v: { n: 1 } })).toBe(false);
    // A form that is such a union itself: reading its tags throws.
    const Outer = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("a"), o: z.object({}) }),
      z.discriminatedUnion("type", [
        z.object({ type: z.literal("x"), kind: z.literal("b") }),
        z.lazy(() => z.object({ other: z.string() })),
      ]),
    ]);
    expect(() => z.safeParse(Outer, { kind: "a", o: {} })).toThrow(/Invalid discriminated union option/);
    expect(acceptsOnce(newAcceptance(), Outer, { kind: "a", o: {} })).toBe(false);
  });

  it("judges the same object again from its answer, whichever walk above reached it", () => {
    const walk = newAcceptance();
    const shared = { id: 1, child: { name: "x" } };
    const value = { id: 2, child: { id: 3, child: shared } };
    expect(acceptsOnce(walk, Node, value)).toBe(true);
    expect(acceptsOnce(walk, Node, { name: "y", child: shared })).toBe(true);
    expect(acceptsOnce(walk, Node, { name: "y", child: { id: "no", child: shared } })).toBe(false);
  });

  it("parses each level of a nested value a bounded number of times, not once per level above it", () => {
    let parsed = 0;
    const id = z.number().refine(() => {
      parsed += 1;
      return true;
    });
    const Counted: z.ZodType = z.union([
      z.object({
        name: z.string(),
        get child() {
          return Counted.optional();
        },
      }),
      z.object({
        id,
        get child() {
          return Counted.optional();
        },
      }),
    ]);
    const levels = 60;
    let value: Record<string, unknown> = { id: 0 };
    for (let level = 1; level < levels; level += 1) value = { id: level, child: value };
    expect(acceptsOnce(newAcceptance(), Counted, value)).toBe(true);
    // One parse of each level's id (a whole parse per level: levels²/2, 1830).
    expect(parsed).toBe(levels);
  });

  it("parses each level a bounded number of times also through required recursive fields", () => {
    let parsed = 0;
    const number = z.number().refine(() => {
      parsed += 1;
      return true;
    });
    const Sum: z.ZodType = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("num"), value: number }),
      z.object({ kind: z.literal("add"), left: z.lazy(() => Sum), right: z.lazy(() => Sum) }),
    ]);
    const levels = 60;
    let value: Record<string, unknown> = { kind: "num", value: 0 };
    for (let level = 1; level < levels; level += 1)
      value = { kind: "add", left: value, right: { kind: "num", value: level } };
    expect(acceptsOnce(newAcceptance(), Sum, value)).toBe(true);
    // A level's operands stand in as a literal taken below (a whole parse per level: levels²).
    expect(parsed).toBeLessThanOrEqual(4 * levels);
    parsed = 0;
    expect(
      acceptsOnce(newAcceptance(), Sum, { kind: "add", left: value, right: { kind: "num", value: "x" } }),
    ).toBe(false);
    expect(parsed).toBeLessThanOrEqual(4 * levels);
  });
});
