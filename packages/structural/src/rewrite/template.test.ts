import { afterAll, describe, expect, it } from "vitest";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { rewriteFile } from "./rewrite-file.js";
import { checkTemplate } from "./template.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

/** The file after rewriting every match of `pattern` with `template`, as `ast_edit` does. */
async function rewrite(language: string, pattern: string, code: string, template: string): Promise<string> {
  const spec = parser.spec(language);
  const compiled = await parser.compile(spec, pattern);
  checkTemplate(template, compiled);
  const tree = await parser.parse(spec, code);
  try {
    const { matches } = findMatches(compiled, tree, code);
    expect(matches.length).toBeGreaterThan(0);
    return rewriteFile(code, matches, template, {
      keepTrailingSemicolon: compiled.impliedSemicolon,
      codeNames: compiled.codeNames,
    }).newText;
  } finally {
    tree.delete();
  }
}

describe("rewrite templates", () => {
  it("writes \\$NAME as the code $NAME, not a metavariable", async () => {
    // A shell variable in the template was an unbound metavariable (TEMPLATE_INVALID) before.
    expect(await rewrite("bash", "echo $X", "echo hi\n", "printf '%s\\n' $X \\$HOME")).toBe(
      "printf '%s\\n' hi $HOME\n",
    );
    expect(await rewrite("typescript", "log($A)", "log(a);\n", "log($A, \\$$$REST, \\$$B)")).toBe(
      "log(a, $$$REST, $$B);\n",
    );
  });

  it("still rejects an unbound metavariable, and says how to write a literal one", async () => {
    const compiled = await parser.compile(parser.spec("bash"), "echo $X");
    expect(() => checkTemplate("printf $X $HOME", compiled)).toThrow(
      expect.objectContaining({ code: "TEMPLATE_INVALID", message: expect.stringContaining("\\$NAME") }),
    );
  });

  it("drops the separator of an empty $$$ run", async () => {
    const code = "foo(x);\nfoo(a, b);\n";
    expect(await rewrite("typescript", "foo($$$A, $B)", code, "bar($$$A, $B)")).toBe("bar(x);\nbar(a, b);\n");
    expect(await rewrite("typescript", "foo($$$A, $B)", code, "bar($B, $$$A)")).toBe("bar(x);\nbar(b, a);\n");
    expect(await rewrite("typescript", "f($$$A)", "f();\n", "g(1, $$$A)")).toBe("g(1);\n");
  });
});

describe("a match that passed over a keyword", () => {
  it("is left unchanged and reported, and a match inside it is rewritten", async () => {
    const spec = parser.spec("typescript");
    const compiled = await parser.compile(spec, "function $F() { $$$B }");
    const code = "async function f() {\n  function g() { a(); }\n}\nfunction h() {}\n";
    const tree = await parser.parse(spec, code);
    try {
      const { matches } = findMatches(compiled, tree, code);
      const rewritten = rewriteFile(code, matches, "const $F = () => { $$$B };");
      expect(rewritten.newText).toBe(
        "async function f() {\n  const g = () => { a(); };\n}\nconst h = () => {  };\n",
      );
      expect(rewritten.leftUnchanged.map((m) => [m.line, m.passedOver])).toEqual([[0, ["async"]]]);
      expect(rewritten.nestedSkipped).toBe(0);
    } finally {
      tree.delete();
    }
  });
});
