import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parsePlan } from "../chunks/parse-plan.js";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { classOnlyTypes, contextKeywords } from "./context-keywords.js";

interface NodeType {
  readonly type: string;
  readonly named: boolean;
  readonly subtypes?: readonly { type: string }[];
  readonly fields?: Record<string, { types: readonly { type: string }[] }>;
  readonly children?: { types: readonly { type: string }[] };
}

/**
 * The node types whose every parent in the grammar is a class node or such a type again,
 * derived from the grammar package's own `node-types.json` (supertypes expanded).
 */
function classOnlyFromGrammar(nodeTypesPath: string, classNodes: readonly string[]): string[] {
  const types = JSON.parse(readFileSync(nodeTypesPath, "utf8")) as NodeType[];
  const supertypes = new Map(
    types.filter((t) => t.subtypes).map((t) => [t.type, t.subtypes!.map((s) => s.type)]),
  );
  const expand = (type: string, seen = new Set<string>()): string[] => {
    if (seen.has(type)) return [];
    seen.add(type);
    const subtypes = supertypes.get(type);
    return subtypes ? subtypes.flatMap((subtype) => expand(subtype, seen)) : [type];
  };
  const parents = new Map<string, Set<string>>();
  for (const parent of types.filter((t) => t.named)) {
    const lists = [...Object.values(parent.fields ?? {}), ...(parent.children ? [parent.children] : [])];
    for (const child of lists.flatMap((list) => list.types.flatMap((t) => expand(t.type)))) {
      parents.set(child, (parents.get(child) ?? new Set()).add(parent.type));
    }
  }
  const only = new Set(classNodes);
  for (let changed = true; changed;) {
    changed = false;
    for (const [type, of] of parents) {
      if (!only.has(type) && [...of].every((parent) => only.has(parent))) {
        only.add(type);
        changed = true;
      }
    }
  }
  return [...only].filter((type) => !classNodes.includes(type)).sort();
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

describe("context keywords", () => {
  it.each([
    [
      "javascript",
      join(packageDir("tree-sitter-javascript"), "src/node-types.json"),
      ["class", "class_declaration"],
    ],
    [
      "typescript",
      join(packageDir("tree-sitter-typescript"), "typescript/src/node-types.json"),
      ["class", "class_declaration", "abstract_class_declaration"],
    ],
    [
      "tsx",
      join(packageDir("tree-sitter-typescript"), "tsx/src/node-types.json"),
      ["class", "class_declaration", "abstract_class_declaration"],
    ],
  ])(
    "%s: the class-only node types are exactly those the grammar allows only inside a class",
    (language, path, classNodes) => {
      expect([...classOnlyTypes(language)].sort()).toEqual(classOnlyFromGrammar(path, classNodes));
    },
  );

  it("asks for `class` only around class members", () => {
    expect(contextKeywords("typescript", "public_field_definition")).toEqual(["class"]);
    expect(contextKeywords("javascript", "field_definition")).toEqual(["class"]);
    expect(contextKeywords("typescript", "property_signature")).toEqual([]);
    expect(contextKeywords("typescript", undefined)).toEqual([]);
    expect(contextKeywords("python", "class_definition")).toEqual([]);
  });
});

describe("a pattern rooted at a class member", () => {
  const parser = createStructuralParser({ workers: 0, maxCachedTrees: 0 });
  afterAll(() => parser.dispose());

  const source = [
    "interface Shape {",
    "  readonly kind: string;",
    "  className: string;",
    "}",
    "declare namespace geometry {",
    "  interface Point { readonly x: number }",
    "  class Circle {",
    "    readonly radius: number;",
    "  }",
    "  const make = () => class {",
    "    readonly side: number = 1;",
    "  };",
    "}",
    "export class Square {",
    "  readonly side: number;",
    "}",
    "",
  ].join("\n");

  it("needs the word class in the file and in the statement, and finds every member the whole parse finds", async () => {
    const spec = parser.spec("typescript");
    const pattern = await parser.compile(spec, "readonly $P: $T");
    expect(pattern.rootType).toBe("public_field_definition");
    expect(pattern.literals).not.toContain("class");
    expect(pattern.context).toEqual(["class"]);

    const whole = await parser.parse(spec, source);
    const expected = findMatches(pattern, whole, source).matches.map((m) => m.text);
    whole.delete();
    // The member with an initialiser has a child the pattern did not ask for.
    expect(expected).toEqual(["readonly radius: number", "readonly side: number"]);

    const plan = parsePlan("typescript", pattern, source);
    expect(plan).toBeDefined();
    const parsed = plan!.ranges.map((range) => source.slice(range.startIndex, range.endIndex)).join("");
    // The interface (no `class` word: `className` is not one) and the namespace's interface
    // member are not parsed; the class members are.
    expect(parsed).not.toContain("interface Shape");
    expect(parsed).not.toContain("interface Point");
    const tree = await parser.parse(spec, source, plan!.ranges);
    expect(tree.rootNode.hasError).toBe(false);
    expect(findMatches(pattern, tree, source).matches.map((m) => m.text)).toEqual(expected);
    tree.delete();
  });
});
