import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { rewriteFile } from "./rewrite-file.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

/** The file after `ast_edit`'s rewrite of every match of `pattern` to `template`. */
async function rewritten(language: string, pattern: string, code: string, template = ""): Promise<string> {
  const spec = parser.spec(language);
  const compiled = await parser.compile(spec, pattern);
  const tree = await parser.parse(spec, code);
  // As ast_edit searches for a rewrite to nothing.
  const { matches } = findMatches(compiled, tree, code, { statements: template.trim() === "" });
  tree.delete();
  expect(matches.length).toBeGreaterThan(0);
  return rewriteFile(code, matches, template, {
    keepTrailingSemicolon: compiled.keepsSemicolon,
    codeNames: compiled.codeNames,
  }).newText;
}

describe("an empty rewrite deletes a statement or declaration with its own terminator", () => {
  // A deletion left the `;` of what it deleted on its own (`a { color: red; ; padding: 1px; }`,
  // Python's `; x = 2`, which does not parse). Lines a deletion leaves blank stay, as ast-grep
  // leaves them.
  it("takes a CSS declaration's `;` (the pattern does not write it) and one of the blanks around it", async () => {
    const code =
      "a { color: red; margin: 0; padding: 1px; }\n.b {\n  margin: 0 auto;\n  color: blue;\n}\nc { color: red; margin: 0 }\n";
    expect(await rewritten("css", "margin: $$$V", code)).toBe(
      "a { color: red; padding: 1px; }\n.b {\n  \n  color: blue;\n}\nc { color: red; }\n",
    );
    // Written with its `;`, as ast-grep reads it: the same deletion.
    expect(await rewritten("css", "margin: $$$V;", code)).toBe(
      "a { color: red; padding: 1px; }\n.b {\n  \n  color: blue;\n}\nc { color: red; margin: 0 }\n",
    );
  });

  it("takes the `;` of a TypeScript, Rust, C or Dart statement whose expression the pattern is", async () => {
    expect(
      await rewritten("typescript", "console.log($$$A)", "function f() {\n  console.log(1);\n  g();\n}\n"),
    ).toBe("function f() {\n  \n  g();\n}\n");
    expect(await rewritten("typescript", "const $A = $B", "const a = 1; const b = 2\nlet c = 3;\n")).toBe(
      "\nlet c = 3;\n",
    );
    expect(await rewritten("rust", "println!($$$A)", 'fn f() {\n    println!("a"); g();\n}\n')).toBe(
      "fn f() {\n    g();\n}\n",
    );
    expect(await rewritten("c", "free($P)", "void f() {\n  free(p);\n  g();\n}\n")).toBe(
      "void f() {\n  \n  g();\n}\n",
    );
    expect(await rewritten("dart", "print($X)", "void f() {\n  print(x);\n  g();\n}\n")).toBe(
      "void f() {\n  \n  g();\n}\n",
    );
  });

  it("takes the `;` that separates a Python or Go statement from the next on its line", async () => {
    expect(await rewritten("python", "print($$$A)", "print(1); x = 2\nprint(3)\nx = 1; print(4);\n")).toBe(
      "x = 2\n\nx = 1; \n",
    );
    expect(
      await rewritten(
        "go",
        "fmt.Println($$$A)",
        "package m\n\nfunc f() {\n\tfmt.Println(1); g()\n\tfmt.Println(2)\n}\n",
      ),
    ).toBe("package m\n\nfunc f() {\n\tg()\n\t\n}\n");
  });

  it("keeps a `;` that is not the deleted statement's alone: a loop header's, or one that is the whole body left", async () => {
    // `if (x) ;` still does nothing when x holds; `if (x)` alone would take the next statement
    // as its body.
    expect(await rewritten("typescript", "console.log($$$A)", "if (x) console.log(1);\ng();\n")).toBe(
      "if (x) ;\ng();\n",
    );
    expect(await rewritten("c", "free($P)", "void f() {\n  while (x) free(p);\n}\n")).toBe(
      "void f() {\n  while (x) ;\n}\n",
    );
    expect(await rewritten("dart", "print($X)", "void f() {\n  if (c) print(x);\n}\n")).toBe(
      "void f() {\n  if (c) ;\n}\n",
    );
    expect(await rewritten("typescript", "i = 0", "for (i = 0; i < n; i++) {}\n")).toBe(
      "for (; i < n; i++) {}\n",
    );
  });

  it("keeps a JavaScript `;` the next line needs, where the statement before ends without one", async () => {
    // Without the `;`, `let a = b` and a next line opening with `[` or `(` read as one statement
    // (`b[1, 2].forEach(g)`): the deletion leaves the `;` there, as ast-grep does.
    const code = "let a = b\nconsole.log(1);\n[1, 2].forEach(g)\n";
    expect(await rewritten("javascript", "console.log($$$A)", code)).toBe(
      "let a = b\n;\n[1, 2].forEach(g)\n",
    );
    // A leading `;` guarding the next line, and a deletion right before another one.
    expect(
      await rewritten("typescript", "console.log($$$A)", "let a = b\nconsole.log(1)\n;(f || g)()\n"),
    ).toBe("let a = b\n\n;(f || g)()\n");
    expect(
      await rewritten(
        "javascript",
        "console.log($$$A)",
        "let a = b\nconsole.log(1);\nconsole.log(2);\n`t`.length\n",
      ),
    ).toBe("let a = b\n\n;\n`t`.length\n");
    expect(await rewritten("tsx", "const $A = $B", "let a = b\nconst c = 1;\n[c].map(f)\n")).toBe(
      "let a = b\n;\n[c].map(f)\n",
    );
    // A next line that cannot continue the one before: the `;` goes.
    expect(await rewritten("javascript", "console.log($$$A)", "let a = b\nconsole.log(1);\ng()\n")).toBe(
      "let a = b\n\ng()\n",
    );
  });

  it("takes the `;` that separates a Swift statement from the next (a token its tree does not hold)", async () => {
    // tree-sitter-swift's `statements` holds the statements but not the `;` between them: the
    // deletion left `; g()`.
    expect(await rewritten("swift", "print($$$A)", "print(1); g()\nprint(2)\n")).toBe("g()\n\n");
    expect(
      await rewritten("swift", "print($$$A)", "func f() {\n  print(1); g()\n  if x { print(2); h() }\n}\n"),
    ).toBe("func f() {\n  g()\n  if x { h() }\n}\n");
    expect(
      await rewritten("swift", "print($$$A)", "switch x {\ncase 1: print(1); g()\ndefault: h()\n}\n"),
    ).toBe("switch x {\ncase 1: g()\ndefault: h()\n}\n");
    expect(await rewritten("swift", "print($$$A)", "let c = { print(1); g() }\n")).toBe("let c = { g() }\n");
    // The last statement: nothing after it to take.
    expect(await rewritten("swift", "print($$$A)", "func f() {\n  g(); print(1)\n}\n")).toBe(
      "func f() {\n  g(); \n}\n",
    );
  });

  it("leaves a non-empty rewrite's `;` as before", async () => {
    expect(await rewritten("css", "margin: $$$V", "a { margin: 0; }\n", "padding: $$$V")).toBe(
      "a { padding: 0; }\n",
    );
    expect(await rewritten("typescript", "console.log($$$A)", "console.log(1); g();\n", "log($$$A)")).toBe(
      "log(1); g();\n",
    );
  });
});

/**
 * Whether the language's own tool reads the text without a syntax error: CPython's compiler
 * (`compile`, which also rejects an empty block tree-sitter reads without an error), `bash -n`.
 */
function compiles(language: "python" | "bash", text: string): boolean {
  const [command, args] =
    language === "python"
      ? ["python3", ["-c", "import sys; compile(sys.stdin.read(), 'f.py', 'exec')"]]
      : ["bash", ["-n"]];
  const result = spawnSync(command, args, { input: text, timeout: 10_000, encoding: "utf8" });
  if (result.error) throw result.error;
  return result.status === 0;
}

describe("an empty rewrite that empties a body puts the language's no-op statement there", () => {
  // Deleting a body's only statement wrote `if x:\n    ` (Python) or `do ; done` (Bash), which
  // do not parse; the edit was only warned about.
  const python: [string, string, string][] = [
    ["an indented block", "if x:\n    print(1)\ny = 2\n", "if x:\n    pass\ny = 2\n"],
    ["a body on the header's line", "def f(): print(1)\n", "def f(): pass\n"],
    [
      "a block whose statements all go",
      "if x:\n    print(1)\n    print(2)\ny = 2\n",
      "if x:\n    pass\n    \ny = 2\n",
    ],
    ["a one-line body of two statements", "while x: print(1); print(2)\n", "while x: pass; \n"],
    ["a block holding a comment besides", "if x:\n    # why\n    print(1)\n", "if x:\n    # why\n    pass\n"],
    [
      "a nested block, the outer keeping a statement",
      "def f():\n    if x:\n        print(1)\n    return 2\n",
      "def f():\n    if x:\n        pass\n    return 2\n",
    ],
    ["an else branch", "if x:\n    g()\nelse:\n    print(1)\n", "if x:\n    g()\nelse:\n    pass\n"],
    ["a class body", "class A:\n    print(1)\n", "class A:\n    pass\n"],
  ];
  for (const [what, code, expected] of python)
    it(`Python: ${what}`, async () => {
      const text = await rewritten("python", "print($$$A)", code);
      expect(text).toBe(expected);
      expect(compiles("python", text)).toBe(true);
    });

  it("Python: a block that keeps a statement, or a module left empty, gets none", async () => {
    expect(await rewritten("python", "print($$$A)", "if x:\n    print(1)\n    y = 2\n")).toBe(
      "if x:\n    \n    y = 2\n",
    );
    expect(await rewritten("python", "print($$$A)", "print(1)\n")).toBe("\n");
    // A rewrite to something is the template's: no `pass` added.
    expect(await rewritten("python", "print($$$A)", "if x:\n    print(1)\n", "log($$$A)")).toBe(
      "if x:\n    log(1)\n",
    );
  });

  const bash: [string, string, string][] = [
    ["a loop's do … done", "for i in a; do echo a; done\n", "for i in a; do :; done\n"],
    ["a multi-line loop", "while x; do\n  echo a\ndone\n", "while x; do\n  :\ndone\n"],
    ["a function's { … }", "f() { echo a; }\n", "f() { :; }\n"],
    ["a subshell", "( echo a )\n", "( : )\n"],
    [
      "each branch of an if",
      "if x; then echo a; elif y; then echo b; else echo c; fi\n",
      "if x; then :; elif y; then :; else :; fi\n",
    ],
  ];
  for (const [what, code, expected] of bash)
    it(`Bash: ${what}`, async () => {
      const text = await rewritten("bash", "echo $A", code);
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });

  it("Bash: a body that keeps a command gets none", async () => {
    expect(await rewritten("bash", "echo $A", "while x; do\n  echo a\n  g\ndone\n")).toBe(
      "while x; do\n  \n  g\ndone\n",
    );
    expect(await rewritten("bash", "echo $A", "f() {\n  echo a\n  g\n}\n")).toBe("f() {\n  \n  g\n}\n");
  });

  // A command of a `do … done`, a subshell or an `if`'s branch was deleted without its `;` (or
  // `&`): `do ; g; done`, `then g; ; fi`, and `do :; ; done` when the body's every command went,
  // which bash rejects. It goes with its terminator, as in a `{ … }` or at the top level.
  const terminated: [string, string, string][] = [
    ["a loop's first command", "for i in a; do echo a; g; done\n", "for i in a; do g; done\n"],
    ["a loop's commands, all", "while x; do echo a; echo b; done\n", "while x; do :; done\n"],
    ["a loop's command on its own line", "while x; do\n  echo a; g\ndone\n", "while x; do\n  g\ndone\n"],
    ["a then branch's first command", "if x; then echo a; g; fi\n", "if x; then g; fi\n"],
    ["a then branch's last command", "if x; then g; echo a; fi\n", "if x; then g; fi\n"],
    ["an else branch's command", "if x; then g; else echo a; h; fi\n", "if x; then g; else h; fi\n"],
    ["a subshell's command", "( echo a; g )\n", "( g )\n"],
    ["a command run in the background", "while x; do echo a & g; done\n", "while x; do g; done\n"],
  ];
  for (const [what, code, expected] of terminated)
    it(`Bash: ${what} goes with its terminator`, async () => {
      const text = await rewritten("bash", "echo $A", code);
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });
});

describe("an empty rewrite that deletes commands of a Bash list (`a && b`, `a || b`) takes their operators", () => {
  /** `rewriteFile`'s whole answer for an empty rewrite of `pattern`'s matches in Bash `code`. */
  async function deletion(pattern: string, code: string) {
    const compiled = await parser.compile(parser.spec("bash"), pattern);
    const tree = await parser.parse(parser.spec("bash"), code);
    const { matches } = findMatches(compiled, tree, code, { statements: true });
    tree.delete();
    return rewriteFile(code, matches, "", { codeNames: compiled.codeNames });
  }

  // Deleting one side of a list left its operator: `do  && echo b; done`, `do echo a && ; done`,
  // which bash rejects. The operator goes with the command, and a list whose every command goes
  // is deleted as one command (with its `;`, and a body so emptied gets its `:`).
  const lists: [string, string, string, string][] = [
    [
      "a loop's list, its first command",
      "echo a",
      "while x; do echo a && echo b; done\n",
      "while x; do echo b; done\n",
    ],
    [
      "a loop's list, its last command",
      "echo b",
      "while x; do echo a && echo b; done\n",
      "while x; do echo a; done\n",
    ],
    ["a top-level `||`, its first command", "echo a", "echo a || echo b\n", "echo b\n"],
    ["a top-level `||`, its last command", "echo b", "echo a || echo b\n", "echo a\n"],
    [
      "a middle command, with the operator before it",
      "echo a",
      "if x; then g && echo a || h; fi\n",
      "if x; then g || h; fi\n",
    ],
    ["the first two of three", "echo $A", "echo a && echo b || g\n", "g\n"],
    ["the last two of three", "echo $A", "g && echo a || echo b; h\n", "g; h\n"],
    ["the first and last of three", "echo $A", "echo a && g || echo b\n", "g\n"],
    [
      "a list's every command, the loop's only one",
      "echo $A",
      "while x; do echo a && echo b; done\n",
      "while x; do :; done\n",
    ],
    ["a list's every command, among others", "echo $A", "echo a || echo b; g\n", "g\n"],
    [
      "a list's every command, a body's line",
      "echo $A",
      "f() {\n  echo a && echo b\n  g\n}\n",
      "f() {\n  \n  g\n}\n",
    ],
    [
      "a list over two lines",
      "echo a",
      "while x; do\n  echo a &&\n    g\ndone\n",
      "while x; do\n  g\ndone\n",
    ],
    ["a list that a pattern matches part of", "$A && $B", "echo a && echo b || g\n", "g\n"],
    ["a list in an if's condition", "echo a", "if echo a && g; then h; fi\n", "if g; then h; fi\n"],
    ["a list before a comment", "echo a", "while x; do g && echo a # c\ndone\n", "while x; do g # c\ndone\n"],
    [
      "a list run in the background",
      "echo a",
      "while x; do echo a && g & h; done\n",
      "while x; do g & h; done\n",
    ],
    // tree-sitter reads a redirect after the last command as the list's, which Bash gives that
    // command: deleting it with its operator handed the redirect to the command before
    // (`g > f`, `g &>/dev/null`, `g <<EOF`). It goes alone, as a command of no list does.
    // It left the redirect (`g &&  > f`), which still truncated f: it now goes with the command.
    ["a list's last command with a redirect", "echo a", "g && echo a > f\n", "g\n"],
    ["a list's last command silenced", "echo a", "g || echo a &>/dev/null\n", "g\n"],
    ["a list's last command with a here-doc", "cat", "g && cat <<EOF\nhi\nEOF\nh\n", "g\nh\n"],
    ["a redirected list's first command", "echo a", "echo a && g > f\n", "g > f\n"],
    // A command after `!` left the `!` without one (`!  && g`, which bash rejects): it goes too.
    ["a list's negated first command", "echo a", "! echo a && g\n", "g\n"],
    ["a list's negated middle command", "echo a", "g && ! echo a || h\n", "g || h\n"],
    ["a list's negated command with a redirect", "echo a", "g && ! echo a > f\n", "g\n"],
    ["a redirected list's middle command", "echo a", "g && echo a && h 2>&1\n", "g && h 2>&1\n"],
  ];
  for (const [what, pattern, code, expected] of lists)
    it(`${what}: ${JSON.stringify(code)}`, async () => {
      const text = (await deletion(pattern, code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });

  // Deleting one command of a pipeline wrote ` | grep b`, which bash rejects; with its `|` it
  // would parse but silently change what the next command reads (`grep b` would read the
  // script's input) or where the previous one's output goes. It is left unchanged, and said so.
  it("leaves a command of a pipeline unchanged; a pattern of the whole pipeline deletes it", async () => {
    const stage = await deletion(
      "echo $A",
      "echo a | grep b\nwhile x; do echo c | tr c d; g; done\necho e\n",
    );
    expect(stage.newText).toBe("echo a | grep b\nwhile x; do echo c | tr c d; g; done\n\n");
    expect(stage.leftUnchanged.map((match) => [match.text, match.pipeline])).toEqual([
      ["echo a", true],
      ["echo c", true],
    ]);
    const whole = await deletion(
      "echo $A | $B $$$C",
      "echo a | grep b\nwhile x; do echo c | tr c d; g; done\n",
    );
    expect(whole.newText).toBe("\nwhile x; do g; done\n");
    expect(compiles("bash", whole.newText)).toBe(true);
  });

  // A `case` item's command goes with nothing after it (`a) ;;` is valid), and one last on its
  // line before a comment leaves the comment.
  const kept: [string, string, string][] = [
    ["a case item's only command", "case x in a) echo a;; b) g;; esac\n", "case x in a) ;; b) g;; esac\n"],
    ["a case item's first command", "case x in a) echo a; g;; esac\n", "case x in a) g;; esac\n"],
    ["a case item's last command", "case x in a) g; echo a;; esac\n", "case x in a) g; ;; esac\n"],
    ["a case item falling through", "case x in a) echo a ;& b) g;; esac\n", "case x in a) ;& b) g;; esac\n"],
    [
      "a loop's last command before a comment",
      "while x; do g; echo a # c\ndone\n",
      "while x; do g; # c\ndone\n",
    ],
    ["a loop's only command before a comment", "while x; do echo a # c\ndone\n", "while x; do : # c\ndone\n"],
    ["a top-level command before a comment", "echo a; # c\ng\n", "# c\ng\n"],
  ];
  for (const [what, code, expected] of kept)
    it(`${what}: ${JSON.stringify(code)}`, async () => {
      const text = (await deletion("echo a", code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });
});

describe("an empty rewrite leaves no redirect, condition or expression without its command", () => {
  /** `rewriteFile`'s whole answer for an empty rewrite of `pattern`'s matches in `code`. */
  async function deletion(language: string, pattern: string, code: string) {
    const compiled = await parser.compile(parser.spec(language), pattern);
    const tree = await parser.parse(parser.spec(language), code);
    const { matches } = findMatches(compiled, tree, code, { statements: true });
    tree.delete();
    expect(matches.length).toBeGreaterThan(0);
    return rewriteFile(code, matches, "", { codeNames: compiled.codeNames });
  }

  // A deleted command kept its redirect: `echo a > f` became ` > f`, which still truncates f
  // (bash reads a redirect alone as a command). The redirected statement goes whole.
  const redirects: [string, string, string, string][] = [
    ["a top-level command", "echo $A", "echo a > f\ng\n", "\ng\n"],
    ["a command with two redirects, before another", "echo $A", "echo a 2>&1 >f; g\n", "g\n"],
    ["a loop's only command", "echo $A", "while x; do echo a >&2; done\n", "while x; do :; done\n"],
    ["a list's first command", "echo $A", "echo a > f && g\n", "g\n"],
    ["a list's middle command", "echo a", "g && echo a > f && h\n", "g && h\n"],
    ["a command with its here-doc", "cat", "cat <<EOF\nhi\nEOF\ng\n", "\ng\n"],
    ["a here-doc's command with a redirect", "cat", "x; cat <<EOF > f\nhi\nEOF\n", "x; \n"],
  ];
  for (const [what, pattern, code, expected] of redirects)
    it(`Bash: ${what} goes with its redirect: ${JSON.stringify(code)}`, async () => {
      const text = (await deletion("bash", pattern, code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });

  // A command of a condition left `if ; then`, which bash rejects. One before the condition's
  // last goes with its `;` (the last still decides); the last is what the `if`, `while` or
  // `until` tests, and nothing in its place keeps that (`:` would take every branch and never end
  // a while loop): it is left unchanged, and the match says why.
  const conditions: [string, string, string][] = [
    ["an if's first of two", "if echo a; g; then x; fi\n", "if g; then x; fi\n"],
    ["a while's first of two", "while echo a; read l; do x; done\n", "while read l; do x; done\n"],
    [
      "an elif's first of two",
      "if y; then z; elif echo a; g; then x; fi\n",
      "if y; then z; elif g; then x; fi\n",
    ],
  ];
  for (const [what, code, expected] of conditions)
    it(`Bash: a condition's command before its last goes with its \`;\` (${what})`, async () => {
      const text = (await deletion("bash", "echo $A", code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });
  const tested = [
    "if echo a; then x; fi\n",
    "while echo a; do x; done\n",
    "until echo a; do x; done\n",
    "if g; echo a; then x; fi\n",
    "if y; then z; elif echo a; then x; fi\n",
    "if echo a > f; then x; fi\n",
    "if ! echo a; then x; fi\n",
    "if # why\n  echo a; then x; fi\n",
    "if echo a && echo b; then x; fi\n",
  ];
  for (const code of tested)
    it(`Bash: the command a condition tests is left unchanged: ${JSON.stringify(code)}`, async () => {
      const result = await deletion("bash", "echo $A", code);
      expect(result.newText).toBe(code);
      expect(result.leftUnchanged.length).toBeGreaterThan(0);
      // The command tested, or every command of the list tested.
      expect(
        result.leftUnchanged.every((match) => (match.condition ?? match.list?.condition) !== undefined),
      ).toBe(true);
    });
  it("Bash: a list's last command in a condition still goes with its operator", async () => {
    const text = (await deletion("bash", "echo a", "if g && echo a; then x; fi\n")).newText;
    expect(text).toBe("if g; then x; fi\n");
    expect(compiles("bash", text)).toBe(true);
  });

  // A Python expression deleted where the code needs one left `lambda: `, `def f(a=):`,
  // `[ for i in y]`, which do not parse. `None` goes there: the value a deleted call like
  // `print(1)` gave, and Python's "no value".
  const expressions: [string, string, string][] = [
    ["a lambda's body", "f = lambda: print(1)\n", "f = lambda: None\n"],
    ["a default argument", "def f(a=print(1)):\n    g()\n", "def f(a=None):\n    g()\n"],
    ["a return value", "def f():\n    return print(1)\n", "def f():\n    return None\n"],
    ["a comprehension's element", "x = [print(i) for i in y]\n", "x = [None for i in y]\n"],
    ["a dict comprehension's value", "d = {k: print(k) for k in y}\n", "d = {k: None for k in y}\n"],
    ["an assigned value", "x = print(1)\n", "x = None\n"],
    ["an argument", "f(print(1), 2)\n", "f(None, 2)\n"],
    ["a keyword argument's value", "f(a=print(1))\n", "f(a=None)\n"],
    ["a condition", "if print(1):\n    g()\n", "if None:\n    g()\n"],
    ["an operand", "x = 1 + print(1)\n", "x = 1 + None\n"],
  ];
  for (const [what, code, expected] of expressions)
    it(`Python: ${what} becomes None`, async () => {
      const text = (await deletion("python", "print($A)", code)).newText;
      expect(text).toBe(expected);
      expect(compiles("python", text)).toBe(true);
    });
  it("Python: a statement still goes whole, and a string of a concatenation alone", async () => {
    expect((await deletion("python", "print($A)", "print(1)\nlambda: g\n")).newText).toBe("\nlambda: g\n");
    const text = (await deletion("python", '"a"', 'x = ("a" "b")\n')).newText;
    expect(text).toBe('x = ( "b")\n');
    expect(compiles("python", text)).toBe(true);
  });

  // A comment between a list's operator and the deleted command went with it.
  const comments: [string, string, string, string][] = [
    ["the last command", "echo a", "g && # why\n  echo a\n", "g # why\n  \n"],
    [
      "the last command, a `;` and a command after it",
      "echo a",
      "g && # why\n  echo a; h\n",
      "g # why\n   h\n",
    ],
    ["the first command", "echo a", "echo a && # why\n  g\n", "# why\n  g\n"],
    [
      "a middle command, with the operator after it written before the comment",
      "echo a",
      "g && # why\n  echo a || h\n",
      "g || # why\n  h\n",
    ],
    ["a whole list", "echo $A", "echo a && # why\n  echo b\ng\n", "# why\n  \ng\n"],
  ];
  for (const [what, pattern, code, expected] of comments)
    it(`Bash: a comment in a list stays when ${what} goes: ${JSON.stringify(code)}`, async () => {
      const text = (await deletion("bash", pattern, code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });

  // tree-sitter reads `&& g` after a here-doc's start (`cat <<EOF && g`) inside the here-doc's
  // redirect: deleting g left `cat <<EOF && ⏎hi⏎EOF`, and `||` before a next line made that line
  // the list's (bash -n accepts it: a silent change of meaning).
  const heredocs: [string, string, string, string][] = [
    ["its list's last command", "g", "cat <<EOF && g\nhi\nEOF\n", "cat <<EOF\nhi\nEOF\n"],
    [
      "its list's last command before a next line",
      "g",
      "cat <<EOF || g\nhi\nEOF\nx\n",
      "cat <<EOF\nhi\nEOF\nx\n",
    ],
    ["its list's first of two after it", "g", "cat <<EOF && g && h\nhi\nEOF\n", "cat <<EOF && h\nhi\nEOF\n"],
    [
      "its list's two after it",
      "echo $A",
      "cat <<EOF && echo g && echo h\nhi\nEOF\n",
      "cat <<EOF\nhi\nEOF\n",
    ],
    ["the here-doc's command", "cat", "cat <<EOF && g\nhi\nEOF\n", " <<EOF && g\nhi\nEOF\n"],
  ];
  for (const [what, pattern, code, expected] of heredocs)
    it(`Bash: after a here-doc's start, ${what}: ${JSON.stringify(code)}`, async () => {
      const text = (await deletion("bash", pattern, code)).newText;
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });
});

describe("an empty rewrite of Bash commands around comments, here-docs and substitutions", () => {
  /** What `bash` prints running `text` after `prelude` (`g`, `h` and the like defined). */
  function output(prelude: string, text: string): string {
    const result = spawnSync("bash", ["-c", `${prelude}\n${text}`], { timeout: 10_000, encoding: "utf8" });
    if (result.error) throw result.error;
    return result.stdout;
  }

  // With a comment before a middle command, the operator before it was kept and the one after it
  // went: `g && # why⏎  echo a || h` became `g && # why⏎  h`, which runs h when g succeeds, where
  // the deletion without the comment (`g || h`) runs it when g fails.
  it("keeps the operator after a middle command a comment precedes, as without the comment", async () => {
    const code = "g && # why\n  echo a || h\n";
    const text = await rewritten("bash", "echo a", code);
    expect(text).toBe("g || # why\n  h\n");
    expect(compiles("bash", text)).toBe(true);
    for (const status of [0, 1]) {
      const prelude = `g() { return ${status}; }; h() { echo h; }`;
      expect(output(prelude, text)).toBe(output(prelude, "g || h"));
    }
  });

  // Two deleted commands each holding a comment left an operator opening a line
  // (`g # c1⏎   && # c2⏎  h`), and a list ending in `&` left `⏎   & h`: neither parses.
  const broken: [string, string, string][] = [
    ["two commands in a row", "g && # c1\n  echo a && # c2\n  echo b || h\n", "g || # c1\n   # c2\n  h\n"],
    ["the last command of a list run in the background", "g && # c1\n  echo a & h\n", "g & # c1\n   h\n"],
  ];
  for (const [what, code, expected] of broken)
    it(`leaves no operator opening a line when a comment stays: ${what}`, async () => {
      const text = await rewritten("bash", "echo $$$A", code);
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });

  // A body emptied by deleting a list whole got its `:` in place of the comments kept.
  it("keeps a list's comments where a body emptied gets its no-op", async () => {
    const text = await rewritten("bash", "echo $$$A", "if x; then\n  echo a && # why\n    echo b\nfi\n");
    expect(text).toBe("if x; then\n  # why\n    :\nfi\n");
    expect(compiles("bash", text)).toBe(true);
  });

  // tree-sitter reads `cat <<A && h <<B` with both here-docs' text in h's: deleting h whole took
  // cat's text and end (`cat <<A⏎z`, which bash reads as cat's here-doc running to the end).
  it("leaves the text of another here-doc when a command with a here-doc after one's start goes", async () => {
    const code = "cat <<A && h <<B\na\nA\nb\nB\nz\n";
    const text = await rewritten("bash", "h", code);
    expect(text).toContain("\na\nA\n");
    expect(text).toContain("\nz\n");
    expect(compiles("bash", text)).toBe(true);
  });

  // In `$( … )` a deleted command kept its redirect (`$( > f)`, which still truncates f) and left
  // its `;` without a command (`$(; g)`, which does not parse).
  const substitutions: [string, string][] = [
    ["x=$(echo a > f)\n", "x=$()\n"],
    ["x=$(echo a; g)\n", "x=$( g)\n"],
    ["diff <(echo a 2>&1) y\n", "diff <() y\n"],
  ];
  for (const [code, expected] of substitutions)
    it(`deletes a substitution's command with its redirect and \`;\`: ${JSON.stringify(code)}`, async () => {
      const text = await rewritten("bash", "echo $$$A", code);
      expect(text).toBe(expected);
      expect(compiles("bash", text)).toBe(true);
    });
});

describe("an empty rewrite of a Python call an `await` or a decorator holds", () => {
  /** What CPython prints running `text`, or the last line of its error. */
  function run(text: string): string {
    const result = spawnSync("python3", ["-c", text], { timeout: 10_000, encoding: "utf8" });
    if (result.error) throw result.error;
    return result.status === 0 ? result.stdout : (result.stderr.trim().split("\n").at(-1) ?? "");
  }

  // `await log(1)` became `await None` and `@log(1)` became `@None`: both parse, and both raise a
  // TypeError when they run (awaiting None, calling None on the function).
  const cases: [string, string, string][] = [
    [
      "an awaited call's statement goes",
      "import asyncio\nasync def f():\n    await log(1)\n    print('done')\nasyncio.run(f())\n",
      "import asyncio\nasync def f():\n    \n    print('done')\nasyncio.run(f())\n",
    ],
    [
      "a body of an awaited call alone gets pass",
      "import asyncio\nasync def f():\n    await log(1)\nasyncio.run(f())\nprint('done')\n",
      "import asyncio\nasync def f():\n    pass\nasyncio.run(f())\nprint('done')\n",
    ],
    [
      "an awaited call's value is None",
      "import asyncio\nasync def f():\n    x = await log(1)\n    print('done')\nasyncio.run(f())\n",
      "import asyncio\nasync def f():\n    x = None\n    print('done')\nasyncio.run(f())\n",
    ],
    [
      "a decorator goes with its line",
      "class A:\n    @log(1)\n    @staticmethod\n    def f(): pass\nprint('done')\n",
      "class A:\n    @staticmethod\n    def f(): pass\nprint('done')\n",
    ],
  ];
  for (const [what, code, expected] of cases)
    it(what, async () => {
      const text = await rewritten("python", "log($$$A)", code);
      expect(text).toBe(expected);
      expect(run(text)).toBe("done\n");
    });
});

/** What `command` prints running `text` (stdout, then the last line of stderr when it fails). */
function runs(command: "python3" | "bash", text: string): string {
  const result = spawnSync(command, ["-c", text], { timeout: 10_000, encoding: "utf8" });
  if (result.error) throw result.error;
  return result.status === 0
    ? result.stdout
    : `${result.stdout}${result.stderr.trim().split("\n").at(-1) ?? ""}`;
}

describe("an empty rewrite leaves the command a condition tests inside a { … } or ( … )", () => {
  /** `rewriteFile`'s whole answer for an empty rewrite of `pattern`'s matches in Bash `code`. */
  async function deletion(pattern: string, code: string) {
    const compiled = await parser.compile(parser.spec("bash"), pattern);
    const tree = await parser.parse(parser.spec("bash"), code);
    const { matches } = findMatches(compiled, tree, code, { statements: true });
    tree.delete();
    expect(matches.length).toBeGreaterThan(0);
    return rewriteFile(code, matches, "", { codeNames: compiled.codeNames });
  }

  // `if { false; }; then` became `if { :; }; then`, which parses and takes every branch; a
  // `while ( false )` became `while ( : )`, which never ends but for a `break`. The group's status
  // is its last command's: that command is what the condition tests.
  const tested: [string, string, string][] = [
    ["an if's { … }", "false", "if { false; }; then echo yes; else echo no; fi\n"],
    ["an if's ( … )", "false", "if ( false ); then echo yes; else echo no; fi\n"],
    ["a while's ( … )", "false", "while ( false ); do echo loop; break; done; echo end\n"],
    ["an until's { … }", "true", "until { true; }; do echo loop; break; done; echo end\n"],
    ["an elif's { … }", "false", "if false; then :; elif { false; }; then echo yes; else echo no; fi\n"],
    ["a { … } with a redirect", "false", "if { false; } > /dev/null; then echo yes; else echo no; fi\n"],
    ["the last of a { … } of two", "false", "if { echo a; false; }; then echo yes; else echo no; fi\n"],
    ["a ( … ) in a { … }", "false", "if { ( false ); }; then echo yes; else echo no; fi\n"],
    [
      "a list a { … } is, every command of it",
      "false",
      "if { false && false; }; then echo yes; else echo no; fi\n",
    ],
    // The group's status is the list's or the pipeline's, which is the condition's: `if true && { :; }`
    // took the branch whenever `true` succeeded, `if echo a | { :; }` every time.
    [
      "a { … } that ends a condition's list",
      "false",
      "if true && { false; }; then echo yes; else echo no; fi\n",
    ],
    [
      "the last of a { … } of two that ends a condition's list",
      "false",
      "if true && { echo x; false; }; then echo yes; else echo no; fi\n",
    ],
    [
      "a ( … ) that ends a condition's pipeline",
      "false",
      "if echo a | ( false ); then echo yes; else echo no; fi\n",
    ],
    [
      "a ( … ) that ends a while's list of lists",
      "false",
      "while echo a || true && ( false ); do echo loop; break; done; echo end\n",
    ],
  ];
  for (const [what, pattern, code] of tested)
    it(`Bash: ${what} keeps the command it tests: ${JSON.stringify(code)}`, async () => {
      const result = await deletion(pattern, code);
      expect(result.newText).toBe(code);
      expect(result.leftUnchanged.length).toBeGreaterThan(0);
      // The command tested, or every command of the list tested.
      expect(
        result.leftUnchanged.every((match) => (match.condition ?? match.list?.condition) !== undefined),
      ).toBe(true);
    });

  it("Bash: the condition's keyword is on each match left", async () => {
    const result = await deletion(
      "false",
      "while ( false ); do :; done\nuntil { false; }; do :; done\nif g; then :; elif false; then :; fi\n",
    );
    expect(result.leftUnchanged.map((match) => match.condition)).toEqual([
      { keyword: "while", group: "( … )" },
      { keyword: "until", group: "{ … }" },
      { keyword: "elif" },
    ]);
  });

  // A group that does not end the condition's list, or ends a list no condition tests, is as any.
  const untested: [string, string, string, string][] = [
    [
      "a { … } before a condition's list's last",
      "false",
      "if { false; } || true; then echo yes; else echo no; fi\n",
      "if { :; } || true; then echo yes; else echo no; fi\n",
    ],
    [
      "a { … } ending a list in a body",
      "false",
      "if true; then true && { false; }; fi\n",
      "if true; then true && { :; }; fi\n",
    ],
    ["a ( … ) ending a pipeline no condition tests", "false", "echo a | ( false )\n", "echo a | ( : )\n"],
  ];
  for (const [what, pattern, code, expected] of untested)
    it(`Bash: ${what} still goes: ${JSON.stringify(code)}`, async () => {
      const result = await deletion(pattern, code);
      expect(result.newText).toBe(expected);
      expect(compiles("bash", result.newText)).toBe(true);
      expect(result.leftUnchanged).toEqual([]);
    });

  // A command before a group's last still goes, as one before a condition's last does.
  it("Bash: a command before the last of a condition's { … } goes with its `;`, and the branch taken is the same", async () => {
    const code = "if { echo a; false; }; then echo yes; else echo no; fi\n";
    const text = (await deletion("echo a", code)).newText;
    expect(text).toBe("if { false; }; then echo yes; else echo no; fi\n");
    expect(compiles("bash", text)).toBe(true);
    expect(runs("bash", text)).toBe("no\n");
  });

  // A list whose every command a deletion matched was counted as 1 match left, and said to be
  // the command the condition tests: each command is a match left.
  it("Bash: every command of a condition's list is a match left, each saying which list", async () => {
    const code = "while echo a && echo b; do break; done\n";
    const result = await deletion("echo $A", code);
    expect(result.newText).toBe(code);
    expect(result.leftUnchanged.map((match) => match.text)).toEqual(["echo a", "echo b"]);
    expect(result.leftUnchanged.map((match) => match.condition)).toEqual([undefined, undefined]);
    expect(result.leftUnchanged.map((match) => match.list?.condition?.keyword)).toEqual(["while", "while"]);
  });
});

describe("an empty rewrite of a Python call whose value None cannot stand for", () => {
  /** `rewriteFile`'s whole answer for an empty rewrite of `log($$$A)` in `code`. */
  async function deletion(code: string) {
    const compiled = await parser.compile(parser.spec("python"), "log($$$A)");
    const tree = await parser.parse(parser.spec("python"), code);
    const { matches } = findMatches(compiled, tree, code, { statements: true });
    tree.delete();
    expect(matches.length).toBeGreaterThan(0);
    return rewriteFile(code, matches, "");
  }
  const log = "def log(*a):\n    return type('L', (), {})\n";

  // `class A(log(1))` became `class A(None)`, a TypeError where the class is defined: the base
  // goes with its comma (`class A()` is a class of `object`).
  const bases: [string, string, string][] = [
    ["the only base", "class A(log(1)): pass\n", "class A(): pass\n"],
    ["the first of two", "class A(log(1), dict): pass\n", "class A(dict): pass\n"],
    ["the last of two", "class A(dict, log(1)): pass\n", "class A(dict): pass\n"],
    ["two of three", "class A(log(1), dict, log(2)): pass\n", "class A(dict): pass\n"],
    ["both of two", "class A(log(1), log(2)): pass\n", "class A(): pass\n"],
    ["one before a trailing comma", "class A(\n    log(1),\n): pass\n", "class A(\n    \n): pass\n"],
    ["one before a keyword", "class A(log(1), metaclass=type): pass\n", "class A(metaclass=type): pass\n"],
    ["a parenthesised one", "class A((log(1))): pass\n", "class A(): pass\n"],
    [
      "one after a comment",
      "class A(dict,  # why\n        log(1)): pass\n",
      "class A(dict,  # why\n        ): pass\n",
    ],
  ];
  for (const [what, code, expected] of bases)
    it(`a class's base goes with its comma (${what})`, async () => {
      const text = (await deletion(code)).newText;
      expect(text).toBe(expected);
      expect(compiles("python", text)).toBe(true);
      expect(runs("python3", `${log}${code}print(A.__mro__[-1].__name__)`)).toBe("object\n");
      expect(runs("python3", `${log}${text}print(A.__mro__[-1].__name__)`)).toBe("object\n");
    });

  it("a class's `*`, `**` or `metaclass=` base goes with its comma (None there raised a TypeError too)", async () => {
    const code = "class A(*log(1), dict, **log(2)): pass\nclass B(dict, metaclass=log(3)): pass\n";
    const text = (await deletion(code)).newText;
    expect(text).toBe("class A(dict): pass\nclass B(dict): pass\n");
    expect(runs("python3", `${text}print(A.__mro__[1].__name__, type(B).__name__)`)).toBe("dict type\n");
  });

  // `raise log(1)` became `raise None` and `except log(1):` `except None:`: both parse, and raise
  // a TypeError where they run; no text in the call's place keeps what it raised or caught.
  const kept: [string, string, string][] = [
    ["what a raise raises", "raise", "def f():\n    raise log(1)\n"],
    ["a raise's parenthesised exception", "raise", "raise (log(1))\n"],
    ["an except's type", "except", "try:\n    g()\nexcept log(1):\n    pass\n"],
    ["an except's type with a name", "except", "try:\n    g()\nexcept log(1) as e:\n    pass\n"],
    ["a type of an except's tuple", "except", "try:\n    g()\nexcept (KeyError, log(1)):\n    pass\n"],
    ["an except*'s type", "except", "try:\n    g()\nexcept* log(1):\n    pass\n"],
    ["an f-string's self-documenting expression", "f-string", "print(f'{log(1)=}')\n"],
    ["one with a format", "f-string", "print(f'{log(1) = !r:>10}')\n"],
    // The call is part of the text printed: `{[None]=}` printed `[None]=[None]`, `{None + 1=}` raised.
    ["one in a self-documenting expression", "f-string", "print(f'{[log(1)]=}')\n"],
    ["one an operand of a self-documenting expression", "f-string", "print(f'{log(1) + 1=}')\n"],
    ["one in an f-string a self-documenting expression is", "f-string", `print(f'{f"{log(1)}"=}')\n`],
  ];
  for (const [what, why, code] of kept)
    it(`leaves ${what} unchanged, saying why: ${JSON.stringify(code)}`, async () => {
      const result = await deletion(code);
      expect(result.newText).toBe(code);
      expect(result.leftUnchanged.map((match) => match.irreplaceable)).toEqual([why]);
    });

  it("runs as before where a raise, an except or an f-string held the call", async () => {
    // Here the call gives an exception class, as code that raises or catches what it gives does.
    const code =
      "def log(*a):\n    return type('L', (Exception,), {})\n" +
      "try:\n    raise log(1)\nexcept Exception as e:\n    print('raised', type(e).__name__)\n" +
      "try:\n    raise KeyError\nexcept (KeyError, log(2)):\n    print('caught')\n" +
      "print(f'{log(3)=}'.split('=')[0])\n";
    const text = (await deletion(code)).newText;
    expect(runs("python3", code)).toBe("raised L\ncaught\nlog(3)\n");
    expect(runs("python3", text)).toBe(runs("python3", code));
  });

  it("runs as before where a self-documenting expression held the call", async () => {
    const code = `def log(*a):\n    return 5\nprint(f'{[log(1)]=}', f'{log(2) + 1=}')\n`;
    const text = (await deletion(code)).newText;
    expect(runs("python3", code)).toBe("[log(1)]=[5] log(2) + 1=6\n");
    expect(runs("python3", text)).toBe(runs("python3", code));
  });

  // What a self-documenting expression's format holds is not printed as text: it gets None.
  it("still writes None in a self-documenting expression's format", async () => {
    const text = (await deletion("print(f'{x=:{log(1)}}')\n")).newText;
    expect(text).toBe("print(f'{x=:{None}}')\n");
  });

  // A raise's cause (`from log(1)`) and an f-string's plain expression still get None, which runs.
  it("still writes None for a raise's cause and an f-string's expression", async () => {
    const code = `${log}try:\n    raise KeyError from log(1)\nexcept KeyError:\n    print('caught')\nprint(f'{log(2)}')\n`;
    const text = (await deletion(code)).newText;
    expect(text).toBe(
      `${log}try:\n    raise KeyError from None\nexcept KeyError:\n    print('caught')\nprint(f'{None}')\n`,
    );
    expect(runs("python3", text)).toBe("caught\nNone\n");
  });

  // `await (log(1))` became `await (None)`, a TypeError when it runs: the parentheses and the
  // `await` go with the call, as without parentheses.
  const awaited: [string, string, string][] = [
    ["a statement", "    await (log(1))\n    print('done')\n", "    \n    print('done')\n"],
    ["a value", "    x = await ((log(1)))\n    print('done', x)\n", "    x = None\n    print('done', x)\n"],
  ];
  for (const [what, body, expected] of awaited)
    it(`an awaited parenthesised call goes with its await (${what})`, async () => {
      const head = "import asyncio\nasync def f():\n";
      const tail = "asyncio.run(f())\n";
      const text = (await deletion(`${head}${body}${tail}`)).newText;
      expect(text).toBe(`${head}${expected}${tail}`);
      expect(runs("python3", text)).toMatch(/^done/);
    });
});
