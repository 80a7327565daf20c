import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolsError } from "../errors/tools-error.js";
import { strictViolations } from "../testing/strict-calls.js";
import { defineTool, type InputSchema } from "../tool/define-tool.js";
import { toolJsonSchema, type JsonSchema } from "./json-schema.js";
import { toStrictSchema } from "./strict-schema.js";

function strictOf(name: string, input: InputSchema): JsonSchema {
  const tool = defineTool({
    name,
    tier: "read",
    description: "A test tool.",
    parallelSafe: true,
    input,
    execute: () => "",
  });
  return toStrictSchema(toolJsonSchema(tool), tool.name);
}

function refusal(name: string, input: InputSchema): ToolsError {
  try {
    strictOf(name, input);
  } catch (error) {
    if (ToolsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`${name} was exported strict`);
}

const TreeNode = z.object({
  name: z.string(),
  note: z.string().optional(),
  get children() {
    return z.array(TreeNode).optional();
  },
});

describe("OpenAI strict schema", () => {
  it("makes the shared definition of a recursive schema strict: every key required, no extra keys", () => {
    const strict = strictOf("tree", z.object({ root: TreeNode, spare: TreeNode.optional() }));
    expect(strictViolations(strict)).toEqual([]);
    const definitions = strict["definitions"] as Record<string, JsonSchema>;
    const [node] = Object.values(definitions);
    expect(node).toMatchObject({
      type: "object",
      required: ["name", "note", "children"],
      additionalProperties: false,
      properties: { note: { type: ["string", "null"] }, children: { type: ["array", "null"] } },
    });
    // An optional reference (zod writes a one-part allOf) becomes reference-or-null.
    expect((strict["properties"] as Record<string, unknown>)["spare"]).toEqual({
      anyOf: [{ $ref: expect.stringMatching(/^#\/definitions\//) as unknown }, { type: "null" }],
    });
  });

  it("makes a reused schema's definition (registered with an id) strict", () => {
    const Place = z.object({ path: z.string(), line: z.number().optional() }).meta({ id: "StrictTestPlace" });
    const strict = strictOf("places", z.object({ from: Place, to: Place.optional() }));
    expect(strictViolations(strict)).toEqual([]);
    expect((strict["definitions"] as Record<string, JsonSchema>)["StrictTestPlace"]).toMatchObject({
      required: ["path", "line"],
      additionalProperties: false,
    });
  });

  it("makes $defs entries strict as well (draft 2020-12 schemas)", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: { item: { $ref: "#/$defs/item" } },
      required: ["item"],
      $defs: {
        item: {
          type: "object",
          properties: { id: { type: "string" }, tag: { type: "string" } },
          required: ["id"],
        },
      },
    });
    expect(strictViolations(strict)).toEqual([]);
    expect((strict["$defs"] as Record<string, JsonSchema>)["item"]).toMatchObject({
      required: ["id", "tag"],
      additionalProperties: false,
      properties: { tag: { type: ["string", "null"] } },
    });
  });

  it("writes a discriminated union as anyOf, and leaves no default, oneOf or allOf behind", () => {
    const strict = strictOf(
      "steps",
      z.object({
        step: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("move"), to: z.string().default("home") }),
          z.object({ kind: z.literal("stop") }),
        ]),
        flags: z.array(z.enum(["a", "b"])).default([]),
      }),
    );
    expect(strictViolations(strict)).toEqual([]);
    const step = (strict["properties"] as Record<string, JsonSchema>)["step"]!;
    expect(step["anyOf"]).toHaveLength(2);
  });

  it.each([
    ["a record", z.object({ env: z.record(z.string(), z.string()) }), "env", /record/],
    [
      "a record inside an object",
      z.object({ job: z.object({ env: z.record(z.string(), z.number()) }).optional() }),
      "job.env",
      /record/,
    ],
    [
      "a record inside an array",
      z.object({ jobs: z.array(z.object({ env: z.record(z.string(), z.string()) })) }),
      "jobs[].env",
      /record/,
    ],
    [
      "a catch-all object",
      z.object({ opts: z.object({ a: z.string() }).catchall(z.number()) }),
      "opts",
      /catchall/,
    ],
    ["a loose object", z.object({ opts: z.looseObject({ a: z.string() }) }), "opts", /looseObject/],
    ["a tuple", z.object({ range: z.tuple([z.number(), z.number()]) }), "range", /tuple/],
    ["a value of any type", z.object({ value: z.unknown() }), "value", /any type/],
    ["a map", z.object({ lookup: z.map(z.string(), z.string()) }), "lookup", /any type/],
  ])("refuses %s at export time, naming the tool and the field", (_what, input, field, reason) => {
    const error = refusal("shape_tool", input);
    expect(error.code).toBe("STRICT_SCHEMA_UNSUPPORTED");
    expect(error.message).toContain(`tool 'shape_tool', field '${field}'`);
    expect(error.message).toMatch(reason);
    expect(error.data).toMatchObject({ tool: "shape_tool", field });
  });

  it("does not change the schema it is given", () => {
    const input: JsonSchema = {
      type: "object",
      properties: { a: { type: "string", default: "x" } },
      definitions: { d: { type: "object", properties: { b: { type: "number" } } } },
    };
    const before = structuredClone(input);
    toStrictSchema(input);
    expect(input).toEqual(before);
  });
});
