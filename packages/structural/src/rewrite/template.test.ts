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
      keepTrailingSemicolon: compiled.keepsSemicolon,
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

  it("rejects an anonymous $$$ like $_: it binds nothing to write", async () => {
    const compiled = await parser.compile(parser.spec("typescript"), "foo($$$)");
    expect(() => checkTemplate("bar($$$)", compiled)).toThrow(
      expect.objectContaining({
        code: "TEMPLATE_INVALID",
        message: expect.stringMatching(
          /names \$\$\$, which the pattern does not bind.*\$_ and \$\$\$ bind nothing/,
        ),
      }),
    );
    // Escaped, it is code.
    expect(await rewrite("typescript", "foo($$$)", "foo(1);\n", "bar(\\$$$)")).toBe("bar($$$);\n");
  });

  it("indents the rest of the match's line after a template ending in a newline, as ast-grep", async () => {
    const code = "function f() {\n  console.log(1);\n  x();\n}\n";
    expect(await rewrite("javascript", "console.log($$$A)", code, "debug($$$A);\n")).toBe(
      "function f() {\n  debug(1);\n  ;\n  x();\n}\n",
    );
    // Nothing after the match on its line: the line left empty stays blank.
    expect(await rewrite("python", "print($A)", "def f():\n    print(1)\n", "log($A)\n")).toBe(
      "def f():\n    log(1)\n\n",
    );
  });

  it("drops the separator of an empty $$$ run", async () => {
    const code = "foo(x);\nfoo(a, b);\n";
    expect(await rewrite("typescript", "foo($$$A, $B)", code, "bar($$$A, $B)")).toBe("bar(x);\nbar(a, b);\n");
    expect(await rewrite("typescript", "foo($$$A, $B)", code, "bar($B, $$$A)")).toBe("bar(x);\nbar(b, a);\n");
    expect(await rewrite("typescript", "f($$$A)", "f();\n", "g(1, $$$A)")).toBe("g(1);\n");
  });
});

describe("rewrite indentation, as ast-grep 0.51.1 gives it", () => {
  // Each expected text is what `ast-grep run -p PATTERN -r TEMPLATE -U` wrote, except where noted.
  const test = 'it("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n';

  it("indents a capture placed mid-line by its template line's indent", async () => {
    expect(
      await rewrite("typescript", "it($NAME, $FN)", test, 'describe("math", () => {\n  it($NAME, $FN);\n})'),
    ).toBe('describe("math", () => {\n  it("adds", () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n');
    expect(
      await rewrite(
        "typescript",
        "it($NAME, $FN)",
        test,
        'describe("math", () => {\n  const t = it($NAME, $FN);\n})',
      ),
    ).toBe(
      'describe("math", () => {\n  const t = it("adds", () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n',
    );
  });

  it("adds the template line's indent to the match line's indent, in nested templates", async () => {
    const nested = 'if (x) {\n  it("adds", () => {\n    expect(add(1, 2)).toBe(3);\n  });\n}\n';
    expect(
      await rewrite(
        "typescript",
        "it($NAME, $FN)",
        nested,
        'describe("math", () => {\n  describe("inner", () => {\n    it($NAME, $FN);\n  });\n})',
      ),
    ).toBe(
      'if (x) {\n  describe("math", () => {\n    describe("inner", () => {\n      it("adds", () => {\n' +
        "        expect(add(1, 2)).toBe(3);\n      });\n    });\n  });\n}\n",
    );
  });

  it("indents a $$$ run placed mid-line inside a block", async () => {
    const code = 'function f() {\n  if (x) {\n    logger.info("a",\n      b);\n  }\n}\n';
    const wrapped = "if (debug) {\n  log.write(1, $$$ARGS);\n}";
    expect(await rewrite("typescript", "logger.info($$$ARGS)", code, wrapped)).toBe(
      'function f() {\n  if (x) {\n    if (debug) {\n      log.write(1, "a",\n        b);\n    };\n  }\n}\n',
    );
    // The first template line's own indent counts too.
    expect(await rewrite("typescript", "logger.info($$$ARGS)", code, "  log.write(1, $$$ARGS)")).toBe(
      'function f() {\n  if (x) {\n      log.write(1, "a",\n        b);\n  }\n}\n',
    );
  });

  it("keeps a capture at the start of a template line as before", async () => {
    const code = "if (true) {\n  a(\n    1\n      + 2\n  );\n}\n";
    expect(await rewrite("typescript", "a($B)", code, "c(\n  $B\n)")).toBe(
      "if (true) {\n  c(\n    1\n      + 2\n  );\n}\n",
    );
  });

  it("re-indents Python blocks so the body stays inside its block", async () => {
    const code = "def f():\n    if x:\n        foo(a,\n            b)\n";
    expect(await rewrite("python", "foo($$$A)", code, "if debug:\n    bar($$$A)")).toBe(
      "def f():\n    if x:\n        if debug:\n            bar(a,\n                b)\n",
    );
    const block = "if x:\n    with open(p) as f:\n        a()\n        b()\n";
    expect(
      await rewrite(
        "python",
        "with $C as $F: $$$B",
        block,
        "try:\n    with $C as $F:\n        $$$B\nfinally:\n    done()",
      ),
    ).toBe(
      "if x:\n    try:\n        with open(p) as f:\n            a()\n            b()\n    finally:\n        done()\n",
    );
  });

  it("indents with tabs as written (ast-grep counts spaces only and leaves tab-indented code unindented)", async () => {
    const code = 'if (x) {\n\tit("adds", () => {\n\t\texpect(add(1, 2)).toBe(3);\n\t});\n}\n';
    expect(
      await rewrite("typescript", "it($NAME, $FN)", code, 'describe("math", () => {\n\tit($NAME, $FN);\n})'),
    ).toBe(
      'if (x) {\n\tdescribe("math", () => {\n\t\tit("adds", () => {\n\t\t\texpect(add(1, 2)).toBe(3);\n\t\t});\n\t});\n}\n',
    );
  });

  it("leaves blank lines of a capture blank (ast-grep writes the match line's indent on them)", async () => {
    const code = "if (x) {\n  function m() {\n    a();\n\n    b();\n  }\n}\n";
    const template = "function m() {\n  try {\n    $$$B\n  } finally {}\n}";
    expect(await rewrite("typescript", "function m() { $$$B }", code, template)).toBe(
      "if (x) {\n  function m() {\n    try {\n      a();\n\n      b();\n    } finally {}\n  }\n}\n",
    );
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
