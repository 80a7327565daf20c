import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { findMatches } from "./find-matches.js";
import { matchSource } from "./match-source.js";

const parser = createStructuralParser();
afterAll(() => parser.dispose());

const bindings = (m: { bindings: ReadonlyMap<string, { text: string }> }) =>
  Object.fromEntries([...m.bindings].map(([k, v]) => [k, v.text]));

describe("matchSource", () => {
  it("matches the spec's dart example exactly as written", async () => {
    const code = "void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}\n";
    const matches = await matchSource(parser, "dart", "if ($X != null) $X.dispose()", code);
    expect(matches.map((m) => m.text)).toEqual(["if (a != null) a.dispose();"]);
    expect(bindings(matches[0]!)).toEqual({ X: "a" });
  });

  it("binds one identifier for a dart $X receiver, and a dotted receiver with $$$X (README)", async () => {
    // The shipped Dart grammar has no call node: `a.b.dispose()` is an identifier and selectors.
    const code = "void f() {\n  a.dispose();\n  a.b.dispose();\n  this.c.d.dispose();\n}\n";
    const single = await matchSource(parser, "dart", "$X.dispose()", code);
    expect(single.map(bindings)).toEqual([{ X: "a" }]);
    const dotted = await matchSource(parser, "dart", "$$$X.dispose()", code);
    expect(dotted.map(bindings)).toEqual([{ X: "a" }, { X: "a.b" }, { X: "this.c.d" }]);
    expect(
      await matchSource(parser, "dart", "foo$X.dispose()", "void f() {\n  fooBar.dispose();\n}\n"),
    ).toEqual([]);
  });

  it("backtracks $$$", async () => {
    const matches = await matchSource(parser, "python", "foo($$$A, $B)", "foo(1, 2, 3)\n");
    expect(matches.map(bindings)).toEqual([{ A: "1, 2", B: "3" }]);
  });

  it("keeps several $$$ in one list polynomial: no attempt hits the step budget", async () => {
    const spec = parser.spec("python");
    const pattern = await parser.compile(spec, "f($$$, $$$, $$$, $$$, $$$, $$$, z)");
    const args = Array.from({ length: 40 }, (_, index) => `a${index}`).join(", ");
    const code = `f(${args}, z, q)\nf(${args}, z)\n`;
    const tree = await parser.parse(spec, code);
    try {
      const found = findMatches(pattern, tree, code);
      expect(found.exhausted).toBe(0);
      expect(found.matches.map((m) => m.line)).toEqual([1]);
    } finally {
      tree.delete();
    }
  });

  it("still backtracks named $$$ that must repeat", async () => {
    const matches = await matchSource(parser, "python", "f($$$A, x, $$$A)", "f(1, 2, x, 1, 2)\nf(1, x, 2)\n");
    expect(matches.map(bindings)).toEqual([{ A: "1, 2" }]);
  });
});

describe("a `;` the pattern did not write and the code may leave out", () => {
  // CSS's last declaration in a block may end without its `;`. The pattern `color: red` is only
  // a declaration with a `;` appended; that `;` is not the pattern's, so it matches the
  // declaration either way (ast-grep 0.51.1 reads `color: red` as an ERROR and finds neither).
  it("matches a CSS declaration with or without its optional last `;`", async () => {
    const code = "a { color: red; }\nb { color: red }\nc { margin: 0; color: red }\nd { color: blue }\n";
    const matches = await matchSource(parser, "css", "color: red", code);
    expect(matches.map((m) => [m.text, m.start])).toEqual([
      ["color: red;", code.indexOf("color: red;")],
      ["color: red", code.indexOf("b {") + 4],
      ["color: red", code.indexOf("c {") + 15],
    ]);
    const values = await matchSource(parser, "css", "color: $V", code);
    expect(values.map(bindings)).toEqual([{ V: "red" }, { V: "red" }, { V: "red" }, { V: "blue" }]);
    const runs = await matchSource(
      parser,
      "css",
      "margin: $$$V",
      "a { margin: 0 auto; }\nb { margin: 0 auto }\n",
    );
    expect(runs.map(bindings)).toEqual([{ V: "0 auto" }, { V: "0 auto" }]);
  });

  it("matches no node that ends in a body instead of the `;` (PHP's `namespace { … }`, as in ast-grep)", async () => {
    // `namespace $N` is `namespace N;`: the global namespace's block is no name for N.
    const code = "<?php\nnamespace {\n  function f() {}\n}\nnamespace A\\B;\nnamespace C {\n}\n";
    const matches = await matchSource(parser, "php", "namespace $N", code);
    expect(matches.map(bindings)).toEqual([{ N: "A\\B" }]);
    const runs = await matchSource(parser, "php", "namespace $$$N", code);
    expect(runs.map(bindings)).toEqual([{ N: "A\\B" }]);
    // Where the other form holds no body, the `;` may still be left out: a C++ template's
    // declaration (`template <typename T> void f() {}`), as in ast-grep.
    const templates = await matchSource(
      parser,
      "cpp",
      "template <typename $T> $D",
      "template <typename T> void f() {}\ntemplate <typename T> class D;\n",
    );
    expect(templates.map((m) => m.text)).toEqual([
      "template <typename T> void f() {}",
      "template <typename T> class D;",
    ]);
    // A PHP statement before `?>`, which ends it without a `;`, as in ast-grep.
    const echoes = await matchSource(parser, "php", "echo $X", "<?php echo $x ?>\n<?php echo $y; ?>\n");
    expect(echoes.map((m) => m.text)).toEqual(["echo $x", "echo $y;"]);
  });

  it("still requires a `;` the pattern writes, as in ast-grep and in JavaScript", async () => {
    const code = "a { color: red; }\nb { color: red }\n";
    const matches = await matchSource(parser, "css", "color: red;", code);
    expect(matches.map((m) => m.text)).toEqual(["color: red;"]);
  });
});
