import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStructuralParser, structuralParserKey } from "../parser/structural-parser.js";
import { structuralTools } from "../tools/structural-tools.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

let dir: string;
let run: Run;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "structural-syntax-check-"));
  run = createRun({ workingDirectory: dir, resources: [[structuralParserKey, parser]] });
});
afterEach(async () => {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const registry = createRegistry({ tools: [...structuralTools], approval: "auto" });

/** ast_edit's answer for a rewrite of `file` (written with `code`), and the staged edit's id. */
async function stage(
  file: string,
  code: string,
  pattern: string,
  rewrite: string,
): Promise<{ text: string; id: string | undefined }> {
  writeFileSync(join(dir, file), code);
  const result = await registry.invoke(run, { tool: "ast_edit", args: { pattern, rewrite, path: file } });
  const text = resultText(result);
  expect(result.isError, text).toBe(false);
  return { text, id: /edit_id "([^"]+)"/.exec(text)?.[1] };
}

describe("ast_edit warns where the rewritten text no longer parses", () => {
  // The staged text was never parsed: a rewrite that leaves code the grammar cannot read was
  // proposed like any other, and the agent learned of it only from a build after accepting.
  it("Python: a rewrite to a comment leaves `if x: # gone`, an empty block (line, column, the new line)", async () => {
    const { text, id } = await stage("a.py", "if x: print(1)\ny = 2\n", "print($$$A)", "# gone");
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors it did not have/m);
    expect(text).toMatch(/\(1 place, below: the rewrite caused it\)/);
    // tree-sitter-python reads the `if` with an empty block, without an error.
    expect(text).toMatch(/^ {2}a\.py:1:13 leaves an empty block: if x: # gone$/m);
    // Warned, not refused: the edit is staged whole, and accepting writes it as proposed.
    const accepted = await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(accepted.isError).toBe(false);
    expect(readFileSync(join(dir, "a.py"), "utf8")).toBe("if x: # gone\ny = 2\n");
  });

  it("Bash: a rewrite to a comment that swallows the loop's `; done`", async () => {
    const { text } = await stage("a.sh", "for i in 1 2; do echo a; done\necho b\n", "echo a", "# a");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors/m);
    expect(text).toMatch(/^ {2}a\.sh:\d+:\d+ (does not parse|lacks .*): /m);
  });

  // Deleting a body's only statement wrote `if x: ` and `do ; done`, which do not parse, and
  // warned; it now writes the language's no-op there, and the preview shows what is written.
  it("deleting a body's only statement writes `pass` or `:` there, as previewed, with no warning", async () => {
    const python = await stage(
      "a.py",
      "if x:\n    print(1)\ny = 2\n\ndef f(): print(2)\n",
      "print($$$A)",
      "",
    );
    expect(python.text).toContain("(proposed) 2 replacements in 1 file");
    expect(python.text).toMatch(/^\+ {4}pass$/m);
    expect(python.text).toMatch(/^\+def f\(\): pass$/m);
    expect(python.text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: python.id, action: "accept" } });
    expect(readFileSync(join(dir, "a.py"), "utf8")).toBe("if x:\n    pass\ny = 2\n\ndef f(): pass\n");

    const bash = await stage("a.sh", "for i in 1 2; do echo a; done\necho b\n", "echo a", "");
    expect(bash.text).toMatch(/^\+for i in 1 2; do :; done$/m);
    expect(bash.text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: bash.id, action: "accept" } });
    expect(readFileSync(join(dir, "a.sh"), "utf8")).toBe("for i in 1 2; do :; done\necho b\n");
  });

  // Deleting one side of a Bash list wrote `do  && g; done` and `echo b || ` and warned; the
  // operator now goes with the command, and a list whose every command goes is one deletion.
  it("Bash: deleting commands of a list takes their operators, as previewed, with no warning", async () => {
    const code = "while x; do echo a && g; done\necho b || h\nif x; then echo c && echo d; fi\n";
    const { text, id } = await stage("a.sh", code, "echo $A", "");
    expect(text).toContain("(proposed) 3 replacements in 1 file");
    expect(text).toMatch(/^\+while x; do g; done$/m);
    expect(text).toMatch(/^\+h$/m);
    expect(text).toMatch(/^\+if x; then :; fi$/m);
    expect(text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(readFileSync(join(dir, "a.sh"), "utf8")).toBe("while x; do g; done\nh\nif x; then :; fi\n");
  });

  // Deleting one command of a pipeline wrote ` | grep b`; with its `|` it would parse but change
  // what `grep b` reads. It is left unchanged, and the answer says why and where.
  it("Bash: a command of a pipeline is left unchanged by a deletion, and said so", async () => {
    writeFileSync(join(dir, "a.sh"), "echo a | grep b\n");
    const result = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "echo $A", rewrite: "", path: "a.sh" },
    });
    expect(resultText(result)).toBe(
      "nothing staged: 1 match left unchanged: it is one command of a pipeline (`a | b`), and deleting it would change what the next command reads " +
        "or where the previous one's output goes; write the whole pipeline in the pattern to delete it (a.sh:1:1).",
    );
  });

  // A deleted command kept its redirect (` > f`, still truncating f), a here-doc's `&& g` left
  // `cat <<EOF && ` (warned), a comment between an operator and the deleted command went with it,
  // and a condition's first command left `if ; g; then` (warned).
  it("Bash: a deletion takes a command's redirect and a condition's `;`, keeps a list's comment, as previewed, with no warning", async () => {
    const code =
      "echo a > f\nwhile x; do echo b >&2; done\ncat <<EOF && echo c\nhi\nEOF\ng && # why\n  echo d\nif echo e; g; then h; fi\n";
    const { text, id } = await stage("a.sh", code, "echo $A", "");
    expect(text).toContain("(proposed) 5 replacements in 1 file");
    expect(text).toMatch(/^\+while x; do :; done$/m);
    expect(text).toMatch(/^\+cat <<EOF$/m);
    expect(text).toMatch(/^\+g # why$/m);
    expect(text).toMatch(/^\+if g; then h; fi$/m);
    expect(text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(readFileSync(join(dir, "a.sh"), "utf8")).toBe(
      "\nwhile x; do :; done\ncat <<EOF\nhi\nEOF\ng # why\n  \nif g; then h; fi\n",
    );
  });

  // Deleting the command a condition tests wrote `if ; then` and `while ; do` (warned). A list
  // whose every command matched was counted as 1 match and called the command tested.
  it("Bash: the command a condition tests is left unchanged by a deletion, and said so", async () => {
    writeFileSync(join(dir, "a.sh"), "if echo a; then x; fi\nwhile echo b && echo c; do y; done\n");
    const result = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "echo $A", rewrite: "", path: "a.sh" },
    });
    expect(resultText(result)).toBe(
      "nothing staged: 1 match left unchanged: it is the command an `if` tests (the last of its condition), " +
        "and deleting it would leave `if ; then`, which does not parse, while `:` in its place always succeeds " +
        "(the `then` branch would always be taken); rewrite the condition, or the whole statement, by hand (a.sh:1:4); " +
        "2 matches left unchanged: together they are every command of the list a `while` tests (the last of its condition), " +
        "and deleting them all would leave `while ; do`, which does not parse, while `:` in its place always succeeds " +
        "(the loop would never end); rewrite the condition, or the whole statement, by hand (a.sh:2:7, a.sh:2:17).",
    );
  });

  // `if { false; }; then` became `if { :; }; then`, which takes every branch.
  it("Bash: the command a condition's { … } or ( … ) ends with is left unchanged by a deletion, and said so", async () => {
    writeFileSync(join(dir, "a.sh"), "until { false; }; do y; done\nif ( false ); then x; fi\n");
    const result = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "false", rewrite: "", path: "a.sh" },
    });
    expect(resultText(result)).toBe(
      "nothing staged: 2 matches left unchanged: each is the command an `until` or an `if` tests " +
        "(the last of the `{ … }` or `( … )` that ends its condition), " +
        "and deleting it would leave `until { ; }; do` or `if ( ); then`, which do not parse, while `:` in its place always succeeds " +
        "(the loop body would never run, the `then` branch would always be taken); rewrite the condition, or the whole statement, by hand (a.sh:1:9, a.sh:2:6).",
    );
  });

  // `raise log(1)`, `except log(2):` and `f'{log(3)=}'` became `raise None`, `except None:` and
  // `f'{None=}'`: they parse, but raise a TypeError or print other text when they run.
  it("Python: a call None cannot stand for is left unchanged by a deletion, and said so; a class base goes with its comma", async () => {
    const code =
      "def f():\n    raise log(1)\ntry:\n    f()\nexcept log(2):\n    pass\nprint(f'{log(3)=}')\nclass A(log(4), B): pass\n";
    const { text, id } = await stage("a.py", code, "log($$$A)", "");
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).toMatch(/^\+class A\(B\): pass$/m);
    expect(text).toContain(
      "1 match left unchanged: it is what a `raise` raises, and `None` in its place raises a TypeError (a bare `raise` re-raises the exception being handled); " +
        "rewrite the statement by hand (a.py:2:11); " +
        "1 match left unchanged: it is an `except`'s exception type, and `None` in its place raises a TypeError when an exception reaches it (a bare `except:` catches every exception); " +
        "rewrite the clause by hand (a.py:5:8); " +
        "1 match left unchanged: it is in an f-string's self-documenting expression (`{…=}`), which prints its own text: `None` in its place would print other text (`{log(1)=}` would print `None=None`); " +
        "rewrite the string by hand (a.py:7:10).",
    );
    expect(text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(readFileSync(join(dir, "a.py"), "utf8")).toBe(code.replace("log(4), ", ""));
  });

  // A Python expression deleted where the code needs one left `lambda: ` and `def f(a=):` (warned).
  it("Python: a deleted expression the code needs becomes None, as previewed, with no warning", async () => {
    const code = "f = lambda: print(1)\ndef g(a=print(2)):\n    print(3)\n";
    const { text, id } = await stage("a.py", code, "print($A)", "");
    expect(text).toContain("(proposed) 3 replacements in 1 file");
    expect(text).toMatch(/^\+f = lambda: None$/m);
    expect(text).toMatch(/^\+def g\(a=None\):$/m);
    expect(text).not.toMatch(/Warning|syntax error/);
    await registry.invoke(run, { tool: "resolve", args: { edit_id: id, action: "accept" } });
    expect(readFileSync(join(dir, "a.py"), "utf8")).toBe("f = lambda: None\ndef g(a=None):\n    pass\n");
  });

  it("TypeScript: a template with an unbalanced bracket, placed on the line it breaks", async () => {
    const code = "function f() {\n  log(1);\n  return 2;\n}\n";
    const { text } = await stage("a.ts", code, "log($A)", "debug($A");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors/m);
    expect(text).toMatch(/^ {2}a\.ts:2:\d+ (does not parse|lacks `\)`): debug\(1;$/m);
  });

  it("names the rewritten line a break far from it comes from (an opened brace reported at the file's end)", async () => {
    const code = "function f(x: boolean) {\n  guard(x);\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n";
    const { text } = await stage("a.ts", code, "guard($A)", "if ($A) {");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors/m);
    const places = text.split("\n").filter((line) => line.startsWith("  a.ts:"));
    expect(places.length).toBeGreaterThan(0);
    // Each place away from line 2 says the rewrite there is where it comes from.
    for (const place of places.filter((line) => !line.startsWith("  a.ts:2:")))
      expect(place).toMatch(/ \(from the rewrite at line 2: if \(x\) \{;\)$/);
    expect(places.some((line) => !line.startsWith("  a.ts:2:"))).toBe(true);
  });

  it("names each rewrite whose brace is left open once, not the last one for every missing brace", async () => {
    const code =
      "function f(x: boolean) {\n  guard(x);\n  return 1;\n}\n\nfunction g(y: boolean) {\n  guard(y);\n  return 2;\n}\n";
    const { text } = await stage("a.ts", code, "guard($A)", "if ($A) {");
    const places = text.split("\n").filter((line) => line.startsWith("  a.ts:"));
    // Two braces opened (lines 2 and 7), both missing where the file ends: the innermost first.
    expect(places).toEqual([
      "  a.ts:9:2 lacks `}`: } (from the rewrite at line 7: if (y) {;)",
      "  a.ts:9:2 lacks `}`: } (from the rewrite at line 2: if (x) {;)",
    ]);
  });

  it("Go: a metavariable pasted where its text does not fit", async () => {
    const code = "package p\n\nfunc f() {\n\tx := g(1)\n\t_ = x\n}\n";
    const { text } = await stage("a.go", code, "$A := $B", "var $B = $A");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors/m);
    expect(text).toMatch(/^ {2}a\.go:4:\d+ (does not parse|lacks .*): var g\(1\) = x$/m);
  });

  it("CSS: a rewrite that drops a declaration's value and colon", async () => {
    const { text } = await stage("a.css", "a {\n  color: red;\n  margin: 0;\n}\n", "color: $V", "$V");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors/m);
    expect(text).toMatch(/^ {2}a\.css:2:\d+ (does not parse|lacks .*): red;$/m);
  });

  it("lists each file with its places, the files that still parse not at all", async () => {
    writeFileSync(join(dir, "ok.py"), "def g():\n    print(1)\n    return 2\n");
    writeFileSync(join(dir, "b.py"), "while y: print(2)\n");
    const { text } = await stage("a.py", "if x: print(1)\n", "print($$$A)", "# gone");
    // Staged on a.py only (its path): the folder next.
    expect(text).toMatch(/leaves 1 file/);
    const result = await registry.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "print($$$A)", rewrite: "# gone", language: "python" },
    });
    const folder = resultText(result);
    expect(folder).toContain("(proposed) 3 replacements in 3 files");
    expect(folder).toMatch(/^Warning: this rewrite leaves 2 files with syntax errors they did not have/m);
    expect(folder).toMatch(/^ {2}a\.py:1:\d+ .*: if x: # gone$/m);
    expect(folder).toMatch(/^ {2}b\.py:1:\d+ .*: while y: # gone$/m);
    expect(folder).not.toMatch(/^ {2}ok\.py:/m);
  });

  it("does not blame the rewrite for a file already broken elsewhere", async () => {
    // The `(` left open on line 4 is the original's; the rewrite on line 1 is clean.
    const code = "def f():\n    log(1)\n\ndef g(:\n    return 2\n";
    const { text } = await stage("a.py", code, "log($A)", "debug($A)");
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).not.toMatch(/Warning|syntax error/);
  });

  it("still blames it for a break of its own in a file already broken elsewhere", async () => {
    const code = "if x: print(1)\n\ndef g(:\n    return 2\n";
    const { text } = await stage("a.py", code, "print($$$A)", "# gone");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors it did not have/m);
    expect(text).toMatch(/^ {2}a\.py:1:\d+ .*: if x: # gone$/m);
    expect(text).not.toMatch(/^ {2}a\.py:3:/m);
  });

  it("still blames a break of its own that error recovery reads together with an old one", async () => {
    // The `(` left open on line 4 is the original's; the one the template leaves open on line 2
    // made a single ERROR with it, excused as the original's: no warning.
    const code = "def f():\n    x.append(1)\n    y = 2\n    z = (\n\ndef g():\n    return 3\n";
    const { text } = await stage("a.py", code, "$A.append($B)", "$A.push($B");
    expect(text).toMatch(/^Warning: this rewrite leaves 1 file with syntax errors it did not have/m);
    expect(text).toMatch(/^ {2}a\.py:2:5 does not parse: x\.push\(1$/m);
    // The same rewrite, balanced: the old break alone, not blamed.
    const clean = await stage("b.py", code, "$A.append($B)", "$A.push($B)");
    expect(clean.text).not.toMatch(/Warning|syntax error/);
  });

  it("says nothing for a clean rewrite", async () => {
    const { text, id } = await stage("a.ts", "function f() {\n  log(1);\n}\n", "log($A)", "debug($A)");
    expect(id).toBeDefined();
    expect(text).not.toMatch(/Warning|syntax error/);
    const python = await stage("b.py", "if x:\n    print(1)\n    y = 2\n", "print($$$A)", "");
    expect(python.text).toContain("(proposed) 1 replacement in 1 file");
    expect(python.text).not.toMatch(/Warning|syntax error/);
  });
});
