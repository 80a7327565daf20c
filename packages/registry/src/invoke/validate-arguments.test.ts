import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exportTools } from "../export/provider-formats.js";
import { strictCall } from "../testing/strict-calls.js";
import { defineTool, type InputSchema, type Tool } from "../tool/define-tool.js";
import { unknownNestedKeys } from "./unknown-keys.js";
import { validateArguments } from "./validate-arguments.js";

function tool<S extends InputSchema>(name: string, input: S): Tool<S> {
  return defineTool({
    name,
    tier: "read",
    description: "A test tool.",
    parallelSafe: true,
    input,
    execute: () => "",
  });
}

/** The shape of ask_user (packages/ask): options is an optional array of objects with an optional field. */
const askUser = tool(
  "ask_user",
  z.object({
    question: z.string(),
    context: z.string().optional(),
    options: z.array(z.object({ label: z.string(), description: z.string().optional() })).optional(),
    allow_free_text: z.boolean().optional(),
    multi_select: z.boolean().optional(),
  }),
);

const TreeNode = z.object({
  name: z.string(),
  note: z.string().optional(),
  get children() {
    return z.array(TreeNode).optional();
  },
});
const Shared = z
  .object({ path: z.string(), line: z.number().int().optional() })
  .meta({ id: "ValidateSharedPlace" });

/** Each shape the strict export walks: nested objects, arrays, unions, defaults, references. */
const shapes = [
  askUser,
  tool(
    "nested",
    z.object({
      outer: z.object({ inner: z.object({ deep: z.string().optional(), keep: z.boolean() }).optional() }),
      list: z.array(z.array(z.object({ tag: z.string().optional() }))),
    }),
  ),
  tool("tree", z.object({ root: TreeNode, spare: TreeNode.optional() })),
  tool("shared", z.object({ from: Shared, to: Shared.optional(), via: z.array(Shared) })),
  tool(
    "tagged",
    z.object({
      step: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("move"), to: z.string().optional() }),
        z.object({ kind: z.literal("stop"), reason: z.string().optional() }),
      ]),
    }),
  ),
  tool(
    "either",
    z.object({ value: z.union([z.object({ a: z.number().optional() }), z.string()]).optional() }),
  ),
  tool(
    "defaults",
    z.object({
      settings: z
        .object({ depth: z.number().default(3), mode: z.literal("fast").optional() })
        .default({ depth: 1 }),
      trimmed: z
        .string()
        .transform((text) => text.trim())
        .optional(),
    }),
  ),
];

describe("validation of OpenAI strict-mode calls", () => {
  it("reads null for a nested optional field as omitted (ask_user options[0].description)", () => {
    const outcome = validateArguments(askUser, {
      question: "Which DB?",
      context: null,
      allow_free_text: null,
      multi_select: null,
      options: [
        { label: "Postgres", description: null },
        { label: "SQLite", description: "local" },
      ],
    });
    expect(outcome).toEqual({
      ok: true,
      input: {
        question: "Which DB?",
        options: [{ label: "Postgres" }, { label: "SQLite", description: "local" }],
      },
    });
  });

  it.each(
    shapes.flatMap((shape) =>
      (["shallow", "deep"] as const).map((mode) => [shape.name, mode, shape] as const),
    ),
  )("accepts every call the strict export allows for %s (%s nulls)", (_name, mode, shape) => {
    const exported = exportTools([shape], "openai")[0]!;
    expect(exported.function.strict).toBe(true);
    const call = strictCall(exported.function.parameters, mode);
    const outcome = validateArguments(shape, call);
    expect(outcome.ok ? "ok" : outcome.message).toBe("ok");
  });

  it("leaves out exactly the nulls of optional fields, through recursion, references and unions", () => {
    const [tree, shared, tagged, either, defaults] = ["tree", "shared", "tagged", "either", "defaults"].map(
      (name) => shapes.find((shape) => shape.name === name)!,
    );
    expect(
      validateArguments(tree!, {
        root: { name: "a", note: null, children: [{ name: "b", note: null, children: null }] },
        spare: null,
      }),
    ).toEqual({ ok: true, input: { root: { name: "a", children: [{ name: "b" }] } } });
    expect(
      validateArguments(shared!, {
        from: { path: "a", line: null },
        to: null,
        via: [{ path: "b", line: 3 }],
      }),
    ).toEqual({ ok: true, input: { from: { path: "a" }, via: [{ path: "b", line: 3 }] } });
    expect(validateArguments(tagged!, { step: { kind: "stop", reason: null } })).toEqual({
      ok: true,
      input: { step: { kind: "stop" } },
    });
    expect(validateArguments(either!, { value: { a: null } })).toEqual({ ok: true, input: { value: {} } });
    expect(validateArguments(defaults!, { settings: { depth: null, mode: null }, trimmed: null })).toEqual({
      ok: true,
      input: { settings: { depth: 3 } },
    });
  });

  it("cleans and checks a recursive union of two object forms by parsing each level a few times, not once per level above it", () => {
    // Counts the numbers zod takes: how often a level is parsed, whatever the path to it.
    let parsed = 0;
    const id = z.number().refine(() => {
      parsed += 1;
      return true;
    });
    const Node: z.ZodType = z.union([
      z.object({
        name: z.string(),
        note: z.string().optional(),
        get child() {
          return Node.optional();
        },
      }),
      z.object({
        id,
        tag: z.string().optional(),
        get child() {
          return Node.optional();
        },
      }),
    ]);
    const nested = tool("nested", z.object({ root: Node }));
    const levels = 40;
    // The second form at every level, with the null strict mode sends for its omitted tag.
    let value: Record<string, unknown> = { id: 0, tag: null };
    let expected: Record<string, unknown> = { id: 0 };
    for (let level = 1; level < levels; level += 1) {
      value = { id: level, tag: null, child: value };
      expected = { id: level, child: expected };
    }
    expect(validateArguments(nested, { root: value })).toEqual({ ok: true, input: { root: expected } });
    // Each level's id is parsed a few times in all: once by the cleaning, once by the check for
    // unknown names and once by the tool's parse (before: every union level above parsed it
    // again, 3 × levels², and before that every form above cleaned it again, over 2^levels).
    expect(parsed).toBeLessThanOrEqual(4 * levels);
  });

  it("keeps null where null is the field's own value", () => {
    const shape = tool(
      "nullish",
      z.object({
        filter: z.object({ owner: z.string().nullish(), since: z.string().nullable() }).optional(),
      }),
    );
    expect(validateArguments(shape, { filter: { owner: null, since: null } })).toEqual({
      ok: true,
      input: { filter: { owner: null, since: null } },
    });
  });

  it("still refuses null for a required nested field, saying where", () => {
    const outcome = validateArguments(askUser, {
      question: "Which?",
      options: [{ label: null, description: null }],
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.message).toContain("options[0].label: expected string, received null");
  });

  it("does not change the arguments it was given", () => {
    const args = { question: "Which?", options: [{ label: "a", description: null }] };
    validateArguments(askUser, args);
    expect(args.options[0]).toEqual({ label: "a", description: null });
  });
});

describe("validation of unknown names inside an argument", () => {
  const messageOf = (target: Tool, args: unknown): string => {
    const outcome = validateArguments(target, args);
    return outcome.ok ? "(accepted)" : outcome.message;
  };

  it("refuses a misspelt nested field, saying where and what was meant, instead of dropping it", () => {
    expect(
      messageOf(askUser, { question: "Which?", options: [{ label: "a", descripton: "the first" }] }),
    ).toBe(
      "Invalid arguments for ask_user:\n- unknown argument 'options[0].descripton' (did you mean 'description'?)\n" +
        "Expected: ask_user(question: string, context?: string, options?: { label: string, description?: string }[], allow_free_text?: boolean, multi_select?: boolean)",
    );
    const [, nested, tree, shared, tagged, either] = shapes;
    expect(messageOf(nested!, { outer: { inner: { keep: true, deap: "x" } }, list: [] })).toContain(
      "- unknown argument 'outer.inner.deap' (did you mean 'deep'?)",
    );
    expect(messageOf(tree!, { root: { name: "a", children: [{ name: "b", nots: "x" }] } })).toContain(
      "- unknown argument 'root.children[0].nots' (did you mean 'note'?)",
    );
    expect(messageOf(shared!, { from: { path: "a", lines: 1 }, via: [] })).toContain(
      "- unknown argument 'from.lines' (did you mean 'line'?)",
    );
    expect(messageOf(tagged!, { step: { kind: "stop", reasons: "done" } })).toContain(
      "- unknown argument 'step.reasons' (did you mean 'reason'?)",
    );
    expect(messageOf(either!, { value: { a: 1, b: 2 } })).toContain("- unknown argument 'value.b'");
  });

  it("leaves a map's keys, a loose object's extra keys and a transformed value to their schema", () => {
    const open = tool(
      "open",
      z.object({
        env: z.record(z.string(), z.string()),
        extra: z.looseObject({ a: z.string() }),
        raw: z
          .object({ a: z.string() })
          .or(z.string())
          .transform((value) => value),
      }),
    );
    expect(
      validateArguments(open, { env: { HOME: "/h" }, extra: { a: "x", b: "y" }, raw: { a: "x" } }).ok,
    ).toBe(true);
  });
});

describe("validation of a union argument", () => {
  const target = tool(
    "locate",
    z.object({ target: z.union([z.object({ file: z.string() }), z.object({ symbol: z.string() })]) }),
  );
  const messageOf = (args: unknown): string => {
    const outcome = validateArguments(target, args);
    return outcome.ok ? "(accepted)" : outcome.message;
  };

  it("says what each form of the value lacked, and spells the forms out in the signature", () => {
    expect(messageOf({ target: { fiel: "a.ts" } })).toBe(
      "Invalid arguments for locate:\n" +
        "- target: fits none of its 2 forms: (1) file: required, but missing; (2) symbol: required, but missing\n" +
        "Expected: locate(target: { file: string }|{ symbol: string })",
    );
    expect(messageOf({ target: { file: 3 } })).toContain(
      "- target: fits none of its 2 forms: (1) file: expected string, received number; (2) symbol: required, but missing",
    );
  });

  it("says a problem every form shares once", () => {
    expect(messageOf({ target: null })).toContain("- target: expected object, received null\n");
  });
});

describe("unknown names inside an argument", () => {
  it("lists the first ten unknown names and counts the rest", () => {
    const list = tool("list", z.object({ items: z.array(z.object({ label: z.string() })) }));
    const items = Array.from({ length: 5000 }, () => ({ label: "a", lable: "b" }));
    const outcome = validateArguments(list, { extra: 1, items });
    const message = outcome.ok ? "(accepted)" : outcome.message;
    expect(message).toContain("- unknown argument 'extra'\n");
    expect(message).toContain("- unknown argument 'items[8].lable' (did you mean 'label'?)\n");
    expect(message).not.toContain("items[9].lable");
    expect(message).toContain("- and 4991 more unknown arguments\n");
    expect(message.split("\n")).toHaveLength(13);
  });

  it("leaves a value with a .catch() fallback to its schema", () => {
    const fallback = tool("fallback", z.object({ x: z.object({ a: z.number() }).catch({ a: 0 }) }));
    const outcome = validateArguments(fallback, { x: { b: 1 } });
    expect(outcome).toEqual({ ok: true, input: { x: { a: 0 } } });
  });

  it("parses each level of a recursive union once, not once per level above it", () => {
    let parsed = 0;
    const name = z.string().refine(() => {
      parsed += 1;
      return true;
    });
    const Node: z.ZodType = z.union([
      z.object({
        name,
        get child() {
          return Node.optional();
        },
      }),
      z.string(),
    ]);
    let value: Record<string, unknown> = { name: "leaf" };
    for (let level = 0; level < 200; level += 1) value = { name: `n${level}`, child: value };
    expect(unknownNestedKeys(Node, value, "root")).toEqual([]);
    // At most once per level of the 201 (old: each union level parsed the whole subtree again).
    expect(parsed).toBeLessThanOrEqual(201);
    value = { name: "top", child: value, chidl: 1 };
    parsed = 0;
    expect(unknownNestedKeys(Node, value, "root")).toEqual([
      "unknown argument 'root.chidl' (did you mean 'child'?)",
    ]);
    expect(parsed).toBeLessThanOrEqual(202);
  });

  it("judges a form with a field named __proto__ as zod does, which passes over that field", () => {
    const proto = tool(
      "proto",
      z.object({
        u: z.union([
          z.object({ ["__proto__"]: z.number(), a: z.object({ x: z.number() }) }),
          z.object({ a: z.object({ x: z.number(), y: z.number().optional() }) }),
        ]),
      }),
    );
    // zod takes the first form (its parse never looks at __proto__): y is unknown there.
    const outcome = validateArguments(proto, JSON.parse('{"u": {"__proto__": {}, "a": {"x": 1, "y": 2}}}'));
    expect(outcome.ok ? "(accepted)" : outcome.message).toContain(
      "- unknown argument 'u.a.y' (did you mean 'x'?)\n",
    );
  });

  it("says a key belongs to another form than the one the value matched, not what it might mean", () => {
    const pick = tool(
      "pick",
      z.object({ x: z.union([z.object({ a: z.number() }), z.object({ a: z.number(), b: z.number() })]) }),
    );
    const outcome = validateArguments(pick, { x: { a: 1, b: 2 } });
    expect(outcome.ok ? "(accepted)" : outcome.message).toContain(
      "- unknown argument 'x.b': its value matched form (1) { a } of 2, which does not take 'b'\n",
    );
  });
});

describe("arguments that are not a JSON object", () => {
  it.each([
    [new Map([["question", "x"]]), "an object of another kind"],
    [42, "a number"],
    [[{ question: "x" }], "an array"],
    [null, "null"],
    ["not json", "a string"],
  ])("names what came instead: %s is %s", (args, named) => {
    expect(validateArguments(askUser, args)).toEqual({
      ok: false,
      message: expect.stringContaining(`arguments must be a JSON object, got ${named}`),
    });
  });
});
