import { afterAll, describe, expect, it } from "vitest";
import type { Tree } from "web-tree-sitter";
import { createStructuralParser } from "../parser/structural-parser.js";
import { rewriteFile } from "../rewrite/rewrite-file.js";
import { findMatches } from "./find-matches.js";
import type { PatternNode } from "../pattern/pattern-node.js";
import { missingTokens, passedOver, TreeMatcher } from "./match-tree.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());
const spec = parser.spec("python");

async function withTree<T>(code: string, use: (tree: Tree) => T): Promise<T> {
  const tree = await parser.parse(spec, code);
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}

const names = (n: number, prefix = "a") =>
  Array.from({ length: n }, (_, index) => `${prefix}${index}`).join(", ");

describe("the $$$ budget counts comparisons", () => {
  it("charges comparing a repeated name's captures, token by token", async () => {
    const pattern = await parser.compile(spec, "f($A, $A)");
    // Same tokens, different spacing: only a token-by-token comparison can tell they are equal.
    const list = Array.from({ length: 100 }, (_, index) => String(index));
    const code = `f([${list.join(",")}], [${list.join(", ")}])\n`;
    await withTree(code, (tree) => {
      const call = tree.rootNode.descendantsOfType("call")[0];
      if (!call) throw new Error("no call parsed");
      const roomy = new TreeMatcher();
      expect(roomy.match(pattern.root, call)?.get("A")).toBeDefined();
      expect(roomy.exhausted).toBe(0);
      // A few steps, but ~400 nodes walked and ~200 tokens compared: over a budget of 200.
      const tight = new TreeMatcher(200);
      expect(tight.match(pattern.root, call)).toBeUndefined();
      expect(tight.exhausted).toBe(1);
    });
  });

  // The budget counts work (steps, nodes walked, tokens compared), so "within the budget" is the
  // bound; how fast that is, is the bench's business, not a test's.
  it("settles a repeated $$$ name over long captures within the budget, matching or not", async () => {
    const pattern = await parser.compile(spec, "f($$$A, zz, $$$A, zz, $$$A)");
    const args = names(800);
    // Took 4.5 s (matching) and 12 s (not) when every candidate run was compared in full.
    for (const [code, matches] of [
      [`f(${args}, zz, ${args}, zz, ${args})\n`, 1],
      [`f(${args}, zz, ${args}, zz, ${args}, q)\n`, 0],
    ] as const) {
      await withTree(code, (tree) => {
        const found = findMatches(pattern, tree, code);
        expect(found.matches).toHaveLength(matches);
        expect(found.exhausted).toBe(0);
        if (matches) expect(found.matches[0]?.bindings.get("A")?.text).toBe(args);
      });
    }
  });

  it("abandons, and reports, an attempt whose comparisons would run past the budget", async () => {
    // Every split of the identical arguments is tried, each comparing long captures.
    const pattern = await parser.compile(spec, "f($$$A, $$$B, $$$A, zz)");
    const code = `f(${Array.from({ length: 800 }, () => "a").join(", ")}, zz, a)\n`;
    await withTree(code, (tree) => {
      const found = findMatches(pattern, tree, code);
      expect(found.matches).toEqual([]);
      expect(found.exhausted).toBe(1);
    });
  });
});

describe("a $$$ run", () => {
  it("covers the comments and separators between the pattern's neighbours", async () => {
    for (const [source, code, text] of [
      ["f($$$A)", "f(  # c\n  a, b,)\n", "# c\n  a, b,"],
      ["f($$$A, z)", "f(a, b  # c\n  , z)\n", "a, b  # c"],
      ["f(a, $$$A)", "f(a, b)\n", "b"],
      ["f($$$A)", "f()\n", ""],
    ] as const) {
      const pattern = await parser.compile(spec, source);
      await withTree(code, (tree) => {
        const found = findMatches(pattern, tree, code);
        expect(found.matches.map((m) => m.bindings.get("A")?.text ?? "")).toEqual([text]);
      });
    }
  });
});

describe("an empty $$$ run", () => {
  it("lets the separator after it match nothing, as ast-grep does", async () => {
    for (const [source, code, bindings, commaRequired] of [
      ["foo($$$A, $B)", "foo(x)\n", { A: "", B: "x" }, false],
      ["f($$$A, 0)", "f(0)\n", { A: "" }, false],
      ["g($$$A, $B, $$$C)", "g(1, 2)\n", { A: "", B: "1", C: "2" }, true],
      // ast-grep matches too (binding B oddly); here A takes nothing and B the last argument.
      ["foo($X, $$$A, $$$B)", "foo(a, b)\n", { X: "a", A: "", B: "b" }, true],
    ] as const) {
      const pattern = await parser.compile(spec, source);
      // A file without a `,` may hold a match: the prefilter must not require one.
      expect(pattern.literals.includes(",")).toBe(commaRequired);
      await withTree(code, (tree) => {
        const found = findMatches(pattern, tree, code);
        const texts = found.matches.map((m) =>
          Object.fromEntries([...m.bindings].map(([k, v]) => [k, v.text])),
        );
        expect({ source, texts }).toEqual({ source, texts: [bindings] });
      });
    }
  });

  it("still needs the separator before it (as ast-grep does)", async () => {
    const pattern = await parser.compile(spec, "f(0, $$$A)");
    expect(pattern.literals).toContain(",");
    const code = "f(0)\n";
    await withTree(code, (tree) => expect(findMatches(pattern, tree, code).matches).toEqual([]));
  });
});

describe("tokens the pattern does not write", () => {
  /** Every match's text, with the tokens it passed over when there are any. */
  async function passed(language: string, source: string, code: string) {
    const languageSpec = parser.spec(language);
    const pattern = await parser.compile(languageSpec, source);
    const tree = await parser.parse(languageSpec, code);
    try {
      return findMatches(pattern, tree, code).matches.map((m) =>
        m.passedOver ? { text: m.text, passedOver: m.passedOver } : { text: m.text },
      );
    } finally {
      tree.delete();
    }
  }

  it("passes over a keyword or marker in front of a token the pattern writes, as ast-grep does, and records it", async () => {
    expect(
      await passed("typescript", "function $F() {}", "async function f() {}\nfunction g() {}\n"),
    ).toEqual([{ text: "async function f() {}", passedOver: ["async"] }, { text: "function g() {}" }]);
    expect(
      await passed(
        "typescript",
        "for (const $X of $Y) $S",
        "async function f() {\n  for await (const x of xs) g(x);\n}\n",
      ),
    ).toEqual([{ text: "for await (const x of xs) g(x);", passedOver: ["await"] }]);
    expect(await passed("python", "def $F(): $$$B", "async def f(): pass\n")).toEqual([
      { text: "async def f(): pass", passedOver: ["async"] },
    ]);
    expect(await passed("rust", "impl $T { $$$B }", "unsafe impl Send {}\n")).toEqual([
      { text: "unsafe impl Send {}", passedOver: ["unsafe"] },
    ]);
    // Inside the match, not only in front of it; markers count as keywords do.
    expect(await passed("javascript", "class $C { m() {} }", "class A { static async *m() {} }\n")).toEqual([
      { text: "class A { static async *m() {} }", passedOver: ["static", "async", "*"] },
    ]);
  });

  it("never passes over a token the pattern's token matched, to match a later one (as ast-grep)", async () => {
    const code = "xs[1::2]\nxs[::2]\nxs[1:2]\nxs[:2]\n";
    expect(await passed("python", "$A[$B:$C]", code)).toEqual([{ text: "xs[1:2]" }]);
    expect(await passed("python", "$A[:$C]", code)).toEqual([{ text: "xs[:2]" }]);
    expect(await passed("python", "$A[::$C]", code)).toEqual([{ text: "xs[::2]" }]);
  });

  it("records no separator it passed over", async () => {
    expect(await passed("python", "foo($A, $B)", "foo(a, b,)\n")).toEqual([{ text: "foo(a, b,)" }]);
  });

  it("never passes over one in front of a metavariable or a node, as ast-grep does not", async () => {
    for (const [language, source, code] of [
      ["python", "yield $A", "def g():\n    yield from inner()\n"],
      ["javascript", "yield $A", "function* g() { yield* inner(); }\n"],
      ["typescript", "($A) => $B", "const h = async (a) => a;\n"],
      ["typescript", 'import { $$$I } from "m"', 'import type { A } from "m";\n'],
      ["typescript", "class $C { $M() {} }", "class A { static m() {} }\n"],
      ["typescript", "export function $F() {}", "export default function f() {}\n"],
    ] as const) {
      expect({ source, code, matches: await passed(language, source, code) }).toEqual({
        source,
        code,
        matches: [],
      });
    }
  });
});

describe("a $$$ standing for a block", () => {
  /** Every match's text and bindings. */
  async function matchesOf(language: string, source: string, code: string) {
    const languageSpec = parser.spec(language);
    const pattern = await parser.compile(languageSpec, source);
    const tree = await parser.parse(languageSpec, code);
    try {
      return findMatches(pattern, tree, code).matches.map((m) => ({
        text: m.text,
        bindings: Object.fromEntries([...m.bindings].map(([k, v]) => [k, v.text])),
      }));
    } finally {
      tree.delete();
    }
  }

  const tryExcept = "try:\n    $$$B\nexcept $E:\n    $$$H";

  it("holds the block only, not the Python clauses after it", async () => {
    const code = [
      "try:\n    line = read()\nexcept IncompleteReadError as e:\n    return e.partial\nexcept LimitOverrunError as e:\n    raise\n",
      "try:\n    v()\nexcept E:\n    h()\n",
    ].join("\n");
    // The first try has a second except clause, which the pattern does not write (no trailing
    // children); ast-grep matches it with B the block and E the first clause.
    expect(await matchesOf("python", tryExcept, code)).toEqual([
      { text: "try:\n    v()\nexcept E:\n    h()", bindings: { B: "v()", E: "E", H: "h()" } },
    ]);
  });

  it("holds a $$$ that is not a whole block to nothing but the code's own shape (as ast-grep)", async () => {
    expect(await matchesOf("python", "from $M import $$$N", "from m import *\n")).toHaveLength(1);
    expect(
      await matchesOf(
        "typescript",
        "export default $$$X",
        "export default class A {}\nexport default function f() {}\n",
      ),
    ).toHaveLength(2);
    expect(
      await matchesOf(
        "go",
        "if $$$C { $$$B }",
        "package p\nfunc g() {\n\tif x := f(); x > 0 {\n\t\th()\n\t}\n}\n",
      ),
    ).toHaveLength(1);
    expect(await matchesOf("rust", "struct $S($$$T);", "struct S(pub i32, u8);\n")).toHaveLength(1);
  });

  it("does not take an elif, an else or a finally after the block", async () => {
    const code = [
      "if a:\n    x()\nelif b:\n    y()\nelse:\n    z()\n",
      "if c:\n    w()\n",
      "for i in xs:\n    p(i)\nelse:\n    q()\n",
      "while k:\n    r()\nelse:\n    s()\n",
      "try:\n    t()\nfinally:\n    u()\n",
    ].join("\n");
    for (const [source, expected] of [
      ["if $C:\n    $$$B", [{ text: "if c:\n    w()", bindings: { C: "c", B: "w()" } }]],
      ["if $C:\n    $$$B\nelse:\n    $$$E", []],
      ["for $I in $X:\n    $$$B", []],
      ["while $C:\n    $$$B", []],
      ["try:\n    $$$B", []],
      [
        "for $I in $X:\n    $$$B\nelse:\n    $$$E",
        [
          {
            text: "for i in xs:\n    p(i)\nelse:\n    q()",
            bindings: { I: "i", X: "xs", B: "p(i)", E: "q()" },
          },
        ],
      ],
      [
        "while $C:\n    $$$B\nelse:\n    $$$E",
        [{ text: "while k:\n    r()\nelse:\n    s()", bindings: { C: "k", B: "r()", E: "s()" } }],
      ],
      [
        "try:\n    $$$B\nfinally:\n    $$$F",
        [{ text: "try:\n    t()\nfinally:\n    u()", bindings: { B: "t()", F: "u()" } }],
      ],
    ] as const) {
      expect({ source, matches: await matchesOf("python", source, code) }).toEqual({
        source,
        matches: expected,
      });
    }
  });

  it("keeps the comments before the block's first statement", async () => {
    expect(await matchesOf("python", "if $C:\n    $$$B", "if a:\n    # lead\n    x()\n")).toEqual([
      { text: "if a:\n    # lead\n    x()", bindings: { C: "a", B: "# lead\n    x()" } },
    ]);
  });

  it("rewrites a try/except into code that still parses", async () => {
    const code =
      "try:\n    a()\nexcept E as e:\n    b()\n\ntry:\n    c()\nexcept F:\n    d()\nexcept G:\n    e()\n";
    const pattern = await parser.compile(spec, tryExcept);
    const rewritten = await withTree(code, (tree) =>
      rewriteFile(
        code,
        findMatches(pattern, tree, code).matches,
        "try:\n    $$$B\nexcept $E:\n    log()\n    $$$H",
      ),
    );
    expect(rewritten.newText).toBe(
      "try:\n    a()\nexcept E as e:\n    log()\n    b()\n\ntry:\n    c()\nexcept F:\n    d()\nexcept G:\n    e()\n",
    );
    await withTree(rewritten.newText, (tree) => expect(tree.rootNode.hasError).toBe(false));
  });

  it("still matches braces-delimited blocks with an else as before (Go, JavaScript, Rust)", async () => {
    for (const [language, source, code, expected] of [
      [
        "javascript",
        "if ($C) { $$$B } else { $$$E }",
        "if (a) { b(); c(); } else { d(); }\nif (x) { y(); }\n",
        { C: "a", B: "b(); c();", E: "d();" },
      ],
      [
        "go",
        "if $C { $$$B } else { $$$E }",
        "package m\nfunc f() {\n\tif a { b(); c() } else { d() }\n\tif x { y() }\n}\n",
        { C: "a", B: "b(); c()", E: "d()" },
      ],
      [
        "rust",
        "if $C { $$$B } else { $$$E }",
        "fn f() {\n    if a { b(); c(); } else { d(); }\n    if x { y(); }\n}\n",
        { C: "a", B: "b(); c();", E: "d();" },
      ],
    ] as const) {
      const found = await matchesOf(language, source, code);
      expect({ language, bindings: found.map((m) => m.bindings) }).toEqual({
        language,
        bindings: [expected],
      });
    }
  });
});

describe("tokens tree-sitter supplied (MISSING)", () => {
  // The `#ifdef __cplusplus` closing an `extern "C" {`: its `}` cuts the `#ifdef` short, and
  // tree-sitter ends it with a MISSING `#endif`.
  const header = '#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n';

  it("passes over a supplied token after the pattern's last child as no code: `#ifdef $X` on an #ifdef cut short is rewritten", async () => {
    const c = parser.spec("c");
    const pattern = await parser.compile(c, "#ifdef $X");
    const tree = await parser.parse(c, header);
    try {
      const matches = findMatches(pattern, tree, header).matches;
      const short = matches.find((m) => m.text === "#ifdef __cplusplus");
      // Nothing passed over (the supplied `#endif` is no `#endif` of the code's), nothing lacking.
      expect(short).toMatchObject({ start: 52, end: 70 });
      expect(short?.passedOver).toBeUndefined();
      expect(short?.trailingCode).toBeUndefined();
      expect(short?.missing).toBeUndefined();
      // The whole guard (its lines and `#endif` trailing) is left; the one cut short is rewritten.
      const { newText } = rewriteFile(header, matches, "#if defined($X)");
      expect(newText).toBe(header.replace("\n#ifdef __cplusplus\n}", "\n#if defined(__cplusplus)\n}"));
    } finally {
      tree.delete();
    }
  });

  it("passes over a supplied token the pattern's element does not match, in front of code it does", async () => {
    // tree-sitter reads `{  : [1, 2] }` as a pair whose key it supplied. No pattern compiled from
    // text has been found to leave out a token tree-sitter supplies in the middle of a node (it
    // supplies only what the grammar requires there, which a pattern of that node writes too, and
    // a metavariable there binds it): this pattern, a pair without its key, is built by hand.
    const ts = parser.spec("typescript");
    const code = "const x = {  : [1, 2] };\n";
    const tree = await parser.parse(ts, code);
    try {
      const pair = tree.rootNode.descendantsOfType("pair")[0];
      expect(pair?.child(0)?.isMissing).toBe(true);
      const keyless: PatternNode = {
        kind: "inner",
        type: "pair",
        children: [
          { kind: "leaf", type: ":", text: ":", named: false },
          { kind: "meta", meta: { kind: "single", name: "V", namedOnly: true } },
        ],
      };
      const env = new TreeMatcher().match(keyless, pair!);
      const value = env?.get("V");
      expect(value?.kind === "single" ? value.node.text : undefined).toBe("[1, 2]");
      // Passed over silently: neither a keyword passed over nor a token the pattern matched.
      expect(passedOver(env!)).toEqual([]);
      expect(missingTokens(env!)).toEqual([]);
    } finally {
      tree.delete();
    }
  });
});
