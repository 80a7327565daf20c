import { afterAll, describe, expect, it, vi } from "vitest";
import type { Node } from "web-tree-sitter";
import { createStructuralParser } from "../parser/structural-parser.js";
import { findMatches } from "./find-matches.js";
import { TreeMatcher } from "./match-tree.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

async function matchTexts(language: string, source: string, text: string): Promise<string[]> {
  const spec = parser.spec(language);
  const tree = await parser.parse(spec, text);
  try {
    return findMatches(await parser.compile(spec, source), tree, text).matches.map((m) => m.text);
  } finally {
    tree.delete();
  }
}

const code = "const a = 1;\nfoo(a, b);\nif (a > b) { bar(); }\nlet c = a + b;\n";

describe("findMatches with a pattern that is one metavariable", () => {
  it("`$$OP` matches every node, named or not, as ast-grep 0.51.1 does", async () => {
    // `ast-grep run -p '$$OP' -l js` on the same text (47 matches, in this order).
    const astGrep = [
      code,
      "const a = 1;",
      "const",
      "a = 1",
      "a",
      "=",
      "1",
      ";",
      "foo(a, b);",
      "foo(a, b)",
      "foo",
      "(a, b)",
      "(",
      "a",
      ",",
      "b",
      ")",
      ";",
      "if (a > b) { bar(); }",
      "if",
      "(a > b)",
      "(",
      "a > b",
      "a",
      ">",
      "b",
      ")",
      "{ bar(); }",
      "{",
      "bar();",
      "bar()",
      "bar",
      "()",
      "(",
      ")",
      ";",
      "}",
      "let c = a + b;",
      "let",
      "c = a + b",
      "c",
      "=",
      "a + b",
      "a",
      "+",
      "b",
      ";",
    ];
    expect(await matchTexts("javascript", "$$OP", code)).toEqual(astGrep);
  });

  it("`$A` matches only the named nodes (27, as ast-grep)", async () => {
    const found = await matchTexts("javascript", "$A", code);
    expect(found).toHaveLength(27);
    expect(found).not.toContain("=");
  });
});

describe("findMatches in a tree with errors", () => {
  it("tries only the calls around the pattern's name, and still finds a `)` tree-sitter supplied", async () => {
    // One error (`foo(1;` lacks its `)`) in a file of 2,000 other calls: `foo($A)` is looked for
    // around `foo`, which every match holds, not in every call. Only the pattern's `)` may be one
    // tree-sitter supplied, which no occurrence of `)` leads to.
    const text = `${Array.from({ length: 2000 }, (_, i) => `g(${i});`).join("\n")}\nconst a = foo(1;\nfoo(2);\n`;
    const tried = vi.spyOn(TreeMatcher.prototype, "match");
    try {
      expect(await matchTexts("typescript", "foo($A)", text)).toEqual(["foo(1", "foo(2)"]);
      expect(tried.mock.calls.length).toBeLessThanOrEqual(4);
    } finally {
      tried.mockRestore();
    }
  });

  it("finds a Dart run whose `)` tree-sitter supplied, though `)` is the pattern's rarest literal", async () => {
    // `await foo(1;` lacks its `)`: the run `foo(1` (inside the await, so no statement match)
    // holds a MISSING one. The file holds `foo` four times and `)` twice (`f()`, `g(2)`), neither
    // inside the run: runs are looked for around the rarest named literal, `foo`.
    const text = "// foo foo foo\nvoid f() async {\n  await foo(1;\n  g(2);\n}\n";
    expect(await matchTexts("dart", "foo($A)", text)).toEqual(["foo(1"]);
  });
});

describe("findMatches on two nodes spanning the same code", () => {
  const go = "package p\n\nvar x = f(1)\n";

  it("lists a match of both with the same bindings once (Go's expression_list around its one call)", async () => {
    // `ast-grep run -p '$$$A $$$B' -l go` lists `f(1)` once; both the expression_list and the
    // call match here (the list's `$$$B` takes the call), with A empty and B `f(1)` each time.
    const texts = await matchTexts("go", "$$$A $$$B", go);
    expect(texts.filter((text) => text === "f(1)")).toEqual(["f(1)"]);
  });

  it("still lists each node a bare metavariable matches, as ast-grep does", async () => {
    // `ast-grep run -p '$A' -l go` lists `f(1)` twice: the expression_list and the call.
    const texts = await matchTexts("go", "$A", go);
    expect(texts.filter((text) => text === "f(1)")).toEqual(["f(1)", "f(1)"]);
  });
});

describe("findMatches with a pattern read whole as an ERROR", () => {
  /** The matches found by trying every named node, as the search did before: `start end` each. */
  async function everyNodeMatches(language: string, source: string, text: string): Promise<string[]> {
    const spec = parser.spec(language);
    const pattern = await parser.compile(spec, source);
    const tree = await parser.parse(spec, text);
    try {
      const found = new Set<string>();
      const matcher = new TreeMatcher();
      const visit = (node: Node): void => {
        if (node.isNamed && (node.isMissing || node.startIndex !== node.endIndex)) {
          if (matcher.match(pattern.root, node)) found.add(`${node.startIndex} ${node.endIndex}`);
        }
        for (const child of node.children) visit(child);
      };
      visit(tree.rootNode);
      return [...found];
    } finally {
      tree.delete();
    }
  }

  async function spans(language: string, source: string, text: string, maxMatches?: number) {
    const spec = parser.spec(language);
    const pattern = await parser.compile(spec, source);
    expect(pattern.rootType).toBeUndefined();
    const tree = await parser.parse(spec, text);
    try {
      const limits = maxMatches === undefined ? {} : { maxMatches };
      return findMatches(pattern, tree, text, limits).matches.map((m) => `${m.start} ${m.end}`);
    } finally {
      tree.delete();
    }
  }

  it("tries only the parents of its rarest written token, not every node", async () => {
    // `import $X from $M` is an ERROR in JavaScript (a module is a string): it matches a node of
    // any type whose children match, so every node was tried (12.9 s on 1,559 node_modules files
    // against ast-grep's 1.9 s). Only a node with an `import` child can match.
    const text = `${Array.from({ length: 2000 }, (_, i) => `g(${i}, from);`).join("\n")}\nimport a from "m";\nimport b from "n";\n`;
    const tried = vi.spyOn(TreeMatcher.prototype, "match");
    try {
      expect(await matchTexts("javascript", "import $X from $M", text)).toEqual([
        'import a from "m";',
        'import b from "n";',
      ]);
      expect(tried.mock.calls.length).toBeLessThanOrEqual(4);
    } finally {
      tried.mockRestore();
    }
  });

  it.each([
    // A `:` tree-sitter supplied (the code lacks it) is the rarest written token: `case` is in
    // the comment four times, and the text `:` nowhere.
    ["go", "case $A:", "package p\n// case case case case\nfunc f() {\n\tswitch x {\n\tcase y\n\t}\n}\n"],
    // Cases nested in a case's statements: outer first.
    [
      "go",
      "case $A:",
      "package p\nfunc f() {\n\tswitch x {\n\tcase 1:\n\t\tswitch y {\n\t\tcase 2:\n\t\t\tg()\n\t\tcase 3:\n\t\t}\n\tcase 4:\n\t}\n}\n",
    ],
    ["go", "import $M", 'package p\n\nimport "fmt"\nimport (\n\t"os"\n\t"io"\n)\n'],
    // A tree with an error elsewhere (`foo(;`), and an import the grammar cannot read.
    [
      "javascript",
      "import $X from $M",
      "// import from\nimport a 'm';\nimport b from 'n';\nfoo(;\nimport(c);\n",
    ],
    ["javascript", "import { $$$N } from $M", 'import { a, b } from "m";\nexport { c } from "n";\n'],
    ["rust", "fn $F() $B", "fn a() {}\nimpl T { fn b() { fn c() {} } }\nfn d(x: u8) {}\n"],
  ])("in %s, %s finds what trying every node finds", async (language, source, text) => {
    const expected = await everyNodeMatches(language, source, text);
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(await spans(language, source, text))).toEqual(new Set(expected));
  });

  it("stops at maxMatches on the same match, the outer one first", async () => {
    const text =
      "package p\nfunc f() {\n\tswitch x {\n\tcase 1:\n\t\tswitch y {\n\t\tcase 2:\n\t\t}\n\t}\n}\n";
    const all = await spans("go", "case $A:", text);
    expect(all).toHaveLength(2);
    expect(await spans("go", "case $A:", text, 1)).toEqual([all[0]]);
    expect(all[0]?.startsWith(`${text.indexOf("case 1")} `)).toBe(true);
  });
});
