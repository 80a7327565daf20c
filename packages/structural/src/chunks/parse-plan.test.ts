import { afterAll, describe, expect, it } from "vitest";
import { findMatches, type StructuralMatch } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { parsePlan, planHolds } from "./parse-plan.js";

const parser = createStructuralParser({ workers: 0, maxCachedTrees: 0 });
afterAll(() => parser.dispose());

/** Everything a match carries, comparable with toEqual. */
function plain(matches: readonly StructuralMatch[]) {
  return matches.map((m) => ({ ...m, bindings: [...m.bindings] }));
}

/** The matches through the plan, the whole file's matches, and how much of the text was parsed. */
async function compare(language: string, text: string, source: string) {
  const spec = parser.spec(language);
  const pattern = await parser.compile(spec, source);
  const whole = await parser.parse(spec, text);
  const expected = plain(findMatches(pattern, whole, text).matches);
  whole.delete();
  const plan = parsePlan(language, pattern, text);
  if (!plan) return { expected, planned: undefined, parsedChars: text.length, holds: false };
  const parsedChars = plan.ranges.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
  if (plan.ranges.length === 0) return { expected, planned: [], parsedChars, holds: true };
  const tree = await parser.parse(spec, text, plan.ranges);
  try {
    expect(tree.rootNode.hasError).toBe(false);
    const holds = planHolds(plan, tree, pattern, text);
    return { expected, planned: plain(findMatches(pattern, tree, text).matches), parsedChars, holds };
  } finally {
    tree.delete();
  }
}

const pythonSource = [
  "import os",
  "",
  "def helper(items):",
  "    out = []",
  "    out.append(items)",
  "    return out",
  "",
  "@dataclass",
  "class Store(Base, metaclass=meta == meta):",
  '    """A store."""',
  "    limit = 10",
  "",
  "    def add(self, item):",
  "        self.items.append(item)",
  "        if item == item:",
  "            raise ValueError() from None",
  "",
  "    @property",
  "    def size(self):",
  "        return len(self.items)",
  "",
  "    def clear(self):",
  "        self.items = []",
  "",
  "def other():",
  "    return 1",
  "",
].join("\n");

describe("parsePlan (Python)", () => {
  it("parses only the statements and class members holding the literals, with the same matches", async () => {
    for (const source of ["$A.append($B)", "raise $E from $C", "$X == $X"]) {
      const { expected, planned, parsedChars } = await compare("python", pythonSource, source);
      expect(expected.length).toBeGreaterThan(0);
      expect(planned).toEqual(expected);
      expect(parsedChars).toBeLessThan(pythonSource.length * 0.75);
    }
  });

  it("finds a decorator written alone, of a class or of a member, as the whole file does", async () => {
    for (const [source, count] of [
      ["@$D", 2],
      ["@property", 1],
    ] as const) {
      const { expected, planned } = await compare("python", pythonSource, source);
      expect({ source, count: expected.length }).toEqual({ source, count });
      expect(planned).toEqual(expected);
    }
  });

  it("finds a match in a class header while skipping its members", async () => {
    const { expected, planned } = await compare("python", pythonSource, "meta == meta");
    expect(expected.map((m) => m.line)).toEqual([8]);
    expect(planned).toEqual(expected);
  });

  it("keeps classes whole for patterns that may span members", async () => {
    const spec = parser.spec("python");
    const pattern = await parser.compile(spec, "class $C($$$B): $$$S");
    const plan = parsePlan("python", pattern, pythonSource);
    const store = pythonSource.indexOf("@dataclass");
    const next = pythonSource.indexOf("def other");
    expect(plan?.ranges.some((range) => range.startIndex <= store && range.endIndex >= next)).toBe(true);
  });

  it("has nothing to parse when no statement holds every literal", async () => {
    const { expected, planned, parsedChars } = await compare("python", pythonSource, "os.append($X)");
    expect(expected).toEqual([]);
    expect(planned).toEqual([]);
    expect(parsedChars).toBe(0);
  });

  it("parses the whole file when the pattern has no literal or matches any node", async () => {
    const spec = parser.spec("python");
    for (const source of ["$A", "$A($B)"]) {
      const pattern = await parser.compile(spec, source);
      if (pattern.literals.length === 0 || pattern.rootType === undefined)
        expect(parsePlan("python", pattern, pythonSource)).toBeUndefined();
    }
  });
});

const typescriptSource = [
  'import { x } from "x";',
  "export interface Options {",
  "  readonly name: string;",
  "  size?: number;",
  "  nested: {",
  "    readonly inner: boolean;",
  "  };",
  "}",
  "export class Box {",
  "  readonly width: number = 1;",
  "  height = 2;",
  "  area(): number {",
  "    return this.width * this.height;",
  "  }",
  "}",
  "export const settings = {",
  "  width: 1,",
  '}; export class Late { readonly extra: string = "" }',
  "export function make(): Box {",
  "  return new Box();",
  "}",
  "",
].join("\n");

describe("parsePlan (TypeScript)", () => {
  it("parses only the members holding the literals, with header and footer, same matches", async () => {
    for (const source of ["readonly $P: $T", "readonly $P: $T;", "height = $V", "$P?: $T"]) {
      const { expected, planned, parsedChars, holds } = await compare("typescript", typescriptSource, source);
      expect(holds).toBe(true);
      expect(planned).toEqual(expected);
      expect(parsedChars).toBeLessThan(typescriptSource.length);
    }
  });

  it("does not trust a plan where a match could be a body parsed member by member", async () => {
    // One member holds every literal, so the plan skips the others, which `$$$B` would miss: the
    // tree shows an object (the pattern's root type) enclosing a split body, and the search
    // parses whole.
    const text = ["export const settings = {", "  width: { a: 1 },", "  height: 2,", "};", ""].join("\n");
    const { planned, expected, holds } = await compare("typescript", text, "{ width: $W, $$$B }");
    expect(expected).toHaveLength(1);
    expect(holds).toBe(false);
    expect(planned).not.toEqual(expected);
  });

  it("parses a statement whole when no member holds every literal", async () => {
    // `interface` is only in the header: a match (here the whole statement) spans the members.
    const { planned, expected, holds, parsedChars } = await compare(
      "typescript",
      typescriptSource,
      "interface $I { $$$B }",
    );
    expect(expected).toHaveLength(1);
    expect(holds).toBe(true);
    expect(planned).toEqual(expected);
    expect(parsedChars).toBeLessThan(typescriptSource.length);
  });

  it("finds a match in a footer (after the closing brace of the body)", async () => {
    const { expected, planned } = await compare("typescript", typescriptSource, "readonly extra: $T = $V");
    expect(expected).toHaveLength(1);
    expect(planned).toEqual(expected);
  });

  it("keeps bodies whole for patterns that are not members", async () => {
    const { expected, planned, holds } = await compare("typescript", typescriptSource, "this.$A * this.$B");
    expect(expected).toHaveLength(1);
    expect(holds).toBe(true);
    expect(planned).toEqual(expected);
  });
});

const statementsSource = [
  'import { q } from "q";',
  "",
  "export function f(a: number) {",
  "  const k = 1;",
  "  if (a > 0)",
  "    return a;",
  "  if (a) {",
  "    x();",
  "  }",
  "  else {",
  "    y();",
  "  }",
  "  try {",
  "    z();",
  "  }",
  "  catch (e) {",
  "    w(e);",
  "  }",
  "  return 0;",
  "}",
  "",
  "export class C {",
  "  @Input()",
  "  name: string;",
  "}",
  "",
].join("\n");

describe("parsePlan (TypeScript statements)", () => {
  it("finds statements whose parts are on several lines as the whole file does", async () => {
    // Each was cut in two members, one of which parsed cleanly alone: the match was lost.
    for (const source of [
      "if ($C) return $V;",
      "if ($C) { $$$A } else { $$$B }",
      "try { $$$A } catch ($E) { $$$B }",
      "@Input() $F: $T;",
      "@Input()",
    ]) {
      const { expected, planned } = await compare("typescript", statementsSource, source);
      expect({ source, count: expected.length }).toEqual({ source, count: 1 });
      expect(planned).toEqual(expected);
    }
  });
});

describe("parsePlan (Go)", () => {
  it("parses only the declarations holding the literals, with the same matches", async () => {
    const text = [
      "package p",
      "",
      'import "errors"',
      "",
      "func a() error {",
      '\treturn errors.New("a")',
      "}",
      "",
      "func b() int { return 1 }",
      "",
      "var c = errors.New(`multi",
      "line`)",
      "",
    ].join("\n");
    const { expected, planned, parsedChars } = await compare("go", text, "errors.New($M)");
    expect(expected).toHaveLength(2);
    expect(planned).toEqual(expected);
    expect(parsedChars).toBeLessThan(text.length * 0.8);
  });
});

describe("parsePlan (a pattern read whole as an ERROR)", () => {
  const go = [
    "package p",
    "",
    'import "errors"',
    "",
    "func a(x int) error {",
    "\tswitch x {",
    "\tcase 1:",
    '\t\treturn errors.New("a")',
    "\tdefault:",
    "\t}",
    "\treturn nil",
    "}",
    "",
    "func b() int { return 1 }",
    "",
    "var c = map[string]int{}",
    "",
  ].join("\n");

  it("parses only the declarations holding the tokens it writes, with the same matches", async () => {
    for (const source of ["import $M", "case $A:", "default:"]) {
      const { expected, planned, parsedChars, holds } = await compare("go", go, source);
      expect(expected, source).toHaveLength(1);
      expect(holds, source).toBe(true);
      expect(planned, source).toEqual(expected);
      expect(parsedChars, source).toBeLessThan(go.length * 0.8);
    }
  });

  it("parses the whole file when a token it writes lies outside the plan", async () => {
    // `case` is in a comment of a declaration without `:`, and `:` in one without `case`: a node
    // spanning declarations (the file's root) could hold both, so no plan is made.
    const text = `package p\n\n// case\nvar d = 1\n\nvar s = "a:b"\n\n${go.slice(go.indexOf("func a"))}`;
    const { expected, planned } = await compare("go", text, "case $A:");
    expect(expected).toHaveLength(1);
    expect(planned).toBeUndefined();
  });
});
