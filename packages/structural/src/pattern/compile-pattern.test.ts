import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { gluedMetaVariables, parseMetaVariable, substituteExpando } from "./metavariable.js";

const parser = createStructuralParser();
afterAll(() => parser.dispose());

describe("metavariables", () => {
  it("reads $NAME, $$NAME, $$$NAME and wildcards", () => {
    expect(parseMetaVariable("$X")).toEqual({ kind: "single", name: "X", namedOnly: true });
    expect(parseMetaVariable("$$OP")).toEqual({ kind: "single", name: "OP", namedOnly: false });
    expect(parseMetaVariable("$$$ARGS")).toEqual({ kind: "multi", name: "ARGS" });
    expect(parseMetaVariable("$_")).toEqual({ kind: "single", name: undefined, namedOnly: true });
    expect(parseMetaVariable("$$$")).toEqual({ kind: "multi", name: undefined });
    expect(parseMetaVariable("$x")).toBeUndefined();
    expect(parseMetaVariable("$1")).toBeUndefined();
  });

  it("finds $NAME glued to other identifier characters, which is not a metavariable", () => {
    expect(gluedMetaVariables("foo$X.dispose($Ybar, $Z, $$$ARGS, $Foo, foo$X)")).toEqual([
      "foo$X",
      "$Ybar",
      "$Foo",
    ]);
    expect(gluedMetaVariables("$X.dispose($$$A, $_, $this, a$b)")).toEqual([]);
  });

  it("substitutes the expando only for sigils", () => {
    expect(substituteExpando("f($A, $$$B, $x, $$$)", "µ")).toBe("f(µA, µµµB, $x, µµµ)");
    expect(substituteExpando("f($A)", undefined)).toBe("f($A)");
  });
});

describe("compilePattern errors", () => {
  it("says where an unparseable pattern failed", async () => {
    const spec = parser.spec("python");
    await expect(parser.compile(spec, "foo($A,, )")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
      message: expect.stringMatching(/line 1, column \d+/),
    });
  });

  it("rejects a pattern of several nodes", async () => {
    await expect(parser.compile(parser.spec("python"), "a\nb")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
    });
  });

  it("rejects a standalone $$$ and an empty pattern", async () => {
    const spec = parser.spec("typescript");
    await expect(parser.compile(spec, "$$$A")).rejects.toMatchObject({ code: "PATTERN_INVALID" });
    await expect(parser.compile(spec, "   ")).rejects.toMatchObject({ code: "PATTERN_INVALID" });
  });

  it("takes an ERROR that is only a metavariable as that metavariable, and rejects other ERRORs", async () => {
    const spec = parser.spec("java");
    const compiled = await parser.compile(spec, "class $C { $$$B }");
    expect(compiled.multiNames).toEqual(new Set(["B"]));
    expect(compiled.root).toMatchObject({
      type: "class_declaration",
      children: [{}, {}, { type: "class_body", children: [{}, { kind: "meta" }, {}] }],
    });
    await expect(parser.compile(spec, "class $C { int }")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
    });
  });

  it("reads a PHP pattern as PHP (never as inline HTML), with or without its <?php", async () => {
    const spec = parser.spec("php");
    for (const source of ["echo $X;", "<?php echo $X;", "<?PHP\necho $X;"]) {
      const compiled = await parser.compile(spec, source);
      expect(compiled.rootType, source).toBe("echo_statement");
      expect(compiled.singleNames).toEqual(new Set(["X"]));
    }
    // `$` starts every PHP variable; the expando lets a metavariable stand where one cannot.
    expect((await parser.compile(spec, "function $F($$$P) { $$$B }")).rootType).toBe("function_definition");
    expect((await parser.compile(spec, "$obj->save()")).literals).toEqual(
      expect.arrayContaining(["obj", "save"]),
    );
    // Several statements are counted without the <?php the wrapper adds.
    await expect(parser.compile(spec, "foo(); bar();")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
      message: expect.stringContaining("it parses as 2 separate nodes"),
    });
    await expect(parser.compile(spec, "<?php")).rejects.toMatchObject({ code: "PATTERN_INVALID" });
  });

  it("reads a lone $$$ in braces as a block's statements, the `;` it needs in C# not the pattern's", async () => {
    const compiled = await parser.compile(parser.spec("csharp"), "if ($C) { $$$B }");
    expect(compiled.root).toMatchObject({
      type: "if_statement",
      children: [{}, {}, { kind: "meta" }, {}, { type: "block", children: [{}, { kind: "meta" }, {}] }],
    });
    expect(compiled.literals).not.toContain(";");
    // Where the braces already are a block, the pattern is the same as before.
    const java = await parser.compile(parser.spec("java"), "if ($C) { $$$B }");
    expect(java.root).toMatchObject({
      children: [{}, { type: "parenthesized_expression" }, { type: "block" }],
    });
    expect(java.literals).not.toContain(";");
  });

  it("names the shipped languages for an unknown id", () => {
    expect(() => parser.spec("cobol")).toThrow(/dart, go|shipped grammars: .*dart.*python.*rust/);
  });

  it("uses a function-body wrapper for a Dart statement and reports the prefilter literals", async () => {
    const compiled = await parser.compile(parser.spec("dart"), "if ($X != null) $X.dispose()");
    expect(compiled.rootType).toBe("if_statement");
    expect(compiled.wrapper).toContain("void __f()");
    expect(compiled.literals).toEqual(expect.arrayContaining(["dispose", "null"]));
  });

  it("loads every shipped grammar", async () => {
    const { languages } = await import("../grammars/languages.js");
    for (const language of languages) {
      const tree = await parser.parse(language, "x");
      expect(tree.rootNode.type.length).toBeGreaterThan(0);
      tree.delete();
    }
  });
});
