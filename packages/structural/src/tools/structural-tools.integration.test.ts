import { execFileSync } from "node:child_process";
import {
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStructuralParser, structuralParserKey } from "../parser/structural-parser.js";
import { searchFiles } from "../search/search.js";
import { nodeFileOperations } from "../staging/apply-edit.js";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool, maxListedChars, searchedLine } from "./ast-grep-tool.js";
import { createResolveTool, resolveTool } from "./resolve-tool.js";
import { structuralTools } from "./structural-tools.js";

const parser = createStructuralParser();
afterAll(() => parser.dispose());

let dir: string;
let run: Run;
const write = (path: string, text: string | Buffer) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const read = (path: string) => readFileSync(join(dir, path), "utf8");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "structural-"));
  write("lib/a.dart", "void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}\n");
  write("lib/b.dart", "void g() {\n  if (c != null) c.dispose();\n}\n");
  write("build/gen.dart", "void h() {\n  if (d != null) d.dispose();\n}\n");
  write(".gitignore", "build/\n");
  write("lib/blob.dart", Buffer.from([0x69, 0x66, 0x00, 0x01, 0x02]));
  write("py/m.py", "foo(1, 2, 3)\nfoo(4)\nbar(5)\n");
  run = createRun({ workingDirectory: dir, resources: [[structuralParserKey, parser]] });
});
afterEach(async () => {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const registry = () => createRegistry({ tools: [...structuralTools], approval: "auto" });

describe("ast_grep through the registry", () => {
  it("shows an indented match's lines as they stand relative to one another, and counts what it left out", async () => {
    write(
      "py/t.py",
      "def f():\n    try:\n        x = 1\n\n        y = 2\n    except ValueError as err:\n        print(err)\n",
    );
    write("py/u.py", "def g():\n    try:\n        h()\n    except OSError as e:\n        raise\n");
    const text = resultText(
      await registry().invoke(run, {
        tool: "ast_grep",
        args: { pattern: "try:\n    $$$\nexcept $E as $N:\n    $$$B", language: "python", path: "py" },
      }),
    );
    expect(text).toContain(["py/t.py:2:5", "  try:", "      x = 1", "  ", "  … (3 more lines)"].join("\n"));
    expect(text).toContain(
      ["py/u.py:2:5", "  try:", "      h()", "  except OSError as e:", "  … (1 more line)"].join("\n"),
    );
  });

  it("shows a match that starts mid-line with its later lines indented as the code reads", async () => {
    // `compute(` starts at column 9 of a line indented by 4: its arguments are one level in
    // from that line, not flush with `compute(` (which the shown lines alone would suggest).
    write("py/c.py", "def f():\n    x = compute(\n        1,\n        2)\n");
    const text = resultText(
      await registry().invoke(run, {
        tool: "ast_grep",
        args: { pattern: "compute($$$A)", language: "python", path: "py/c.py" },
      }),
    );
    expect(text).toContain(["py/c.py:2:9", "  compute(", "      1,", "      2)"].join("\n"));
  });

  it("finds the spec's dart example, honouring .gitignore and skipping binaries", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "if ($X != null) $X.dispose()", language: "dart" },
    });
    const text = resultText(result);
    expect(result.isError).toBe(false);
    expect(text).toContain("2 matches in 2 files");
    expect(text).toContain("lib/a.dart:2:3");
    expect(text).toContain("lib/b.dart:2:3");
    expect(text).toContain("$X = a");
    expect(text).not.toContain("b.dispose");
    expect(text).not.toContain("build/gen.dart");
    expect(text).toContain("skipped 1 binary");
    expect(text.indexOf("lib/a.dart")).toBeLessThan(text.indexOf("lib/b.dart"));
  });

  it("says plainly when nothing matched, with the number of files searched", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "zork($A)", language: "dart" },
    });
    expect(result.isError).toBe(false);
    const text = resultText(result);
    expect(text).toContain("no matches for `zork($A)` (searched 2 dart files; skipped 1 binary).");
    expect(text).not.toContain("Hint:");
  });

  it("counts only the files it searched, and says which it skipped and why", async () => {
    write("lib/big.dart", `${"// padding\n".repeat(200_000)}void z() {}\n`);
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "if ($X != null) $X.dispose()", language: "dart" },
    });
    expect(resultText(result)).toContain(
      "2 matches in 2 files (searched 2 dart files; skipped 1 binary, 1 over 2 MiB)",
    );
  });

  it("hints, when nothing matched, that a metavariable glued to a name is plain code", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo$X.dispose()", language: "dart" },
    });
    const text = resultText(result);
    expect(text).toContain("no matches for `foo$X.dispose()`");
    expect(text).toContain("Hint: `foo$X` is matched as plain code, not as a metavariable");
  });

  it("hints, when nothing matched, that metavariable names are upper case", async () => {
    write("src/a.ts", "foo(a, b);\n");
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($a, $b)", path: "src/a.ts" },
    });
    const text = resultText(result);
    expect(text).toContain("no matches for `foo($a, $b)`");
    expect(text).toContain("Hint: `$a`, `$b` are matched as plain code, not as a metavariable");
    expect(text).toContain("(write `$A`, `$B`)");
  });

  it("gives no upper-case hint where `$name` is code (PHP's variables, Bash's)", async () => {
    write("src/a.php", "<?php\n$this->save($user);\n");
    write("src/a.sh", "echo $HOME\n");
    for (const [pattern, path] of [
      ["$this->load($a)", "src/a.php"],
      ["echo $home", "src/a.sh"],
    ] as const) {
      const text = resultText(await registry().invoke(run, { tool: "ast_grep", args: { pattern, path } }));
      expect(text).toContain(`no matches for \`${pattern}\``);
      expect(text).not.toContain("metavariable names are upper case");
    }
  });

  it("infers the language from a file path and lists max_results matches", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "$F($$$A)", path: "py/m.py", max_results: 3 },
    });
    const text = resultText(result);
    expect(text).toContain("3 matches in 1 file");
    expect(text).not.toContain("at least");
  });

  it("counts every match past max_results up to 10 000, and stops the search there, saying so", async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => `console.log("line ${index}", ${index});`);
    write("big.ts", `${lines.join("\n")}\n`);
    const counted = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "console.log($$$A)", path: "big.ts", max_results: 1 },
    });
    expect(resultText(counted)).toContain("3000 matches in 1 file");
    expect(resultText(counted)).toContain("… and 2999 more (showing 1; raise max_results or narrow path)");
    // Every node of the file (~27 000): not collected past the bound.
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "$A", path: "big.ts", max_results: 1 },
    });
    const text = resultText(result);
    expect(text).toContain(
      "more than 10000 matches in 1 file (the count stopped after 1 of 1 typescript file)",
    );
    expect(text).toContain("… showing 1 of more than 10000; the count stopped there");
  });

  it("gives the exact count when the matches are exactly the count's bound: no 'at least'", async () => {
    // 10 000 matches in two files: the count is exact, and every file was searched.
    const calls = Array.from({ length: 5000 }, () => "f(1);").join("\n");
    write("exact/a.ts", `${calls}\n`);
    write("exact/b.ts", `${calls}\n`);
    const text = resultText(
      await registry().invoke(run, {
        tool: "ast_grep",
        args: { pattern: "f($A)", path: "exact", language: "typescript", max_results: 1 },
      }),
    );
    expect(text).toContain("10000 matches in 2 files (searched 2 typescript files)");
    expect(text).toContain("… and 9999 more (showing 1; raise max_results or narrow path)");
    expect(text).not.toContain("at least");
    expect(text).not.toContain("more than");
  });

  it("past the count's bound says there are more, and after how many of the files it stopped", async () => {
    // 4000 matches in each of 5 files: the count passes 10 000 in the third file.
    const calls = Array.from({ length: 4000 }, () => "f(1);").join("\n");
    for (const name of ["a", "b", "c", "d", "e"]) write(`many/${name}.ts`, `${calls}\n`);
    const text = resultText(
      await registry().invoke(run, {
        tool: "ast_grep",
        args: { pattern: "f($A)", path: "many", language: "typescript", max_results: 1 },
      }),
    );
    expect(text).toContain(
      "more than 10000 matches in 3 files (the count stopped after 3 of 5 typescript files)",
    );
    expect(text).toContain(
      "… showing 1 of more than 10000; the count stopped there (raise max_results or narrow path)",
    );
    expect(text).not.toContain("at least");
  });

  it("bounds the listing at 24 000 characters over all matches, saying how many were left out", async () => {
    const lines = Array.from({ length: 1200 }, (_, index) => `f(${index}, "${"x".repeat(1500)}");`);
    write("wide.ts", `${lines.join("\n")}\n`);
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "f($N, $S)", path: "wide.ts", max_results: 1000 },
    });
    const text = resultText(result);
    expect(text).toContain("1200 matches in 1 file");
    expect(text.length).toBeLessThanOrEqual(maxListedChars + 1_000);
    const shown =
      /… showing (\d+) of 1200: the listing stops at 24000 characters \((\d+) more not shown; narrow path or the pattern, or lower max_results\)/.exec(
        text,
      );
    expect(shown).not.toBeNull();
    expect(Number(shown![1]) + Number(shown![2])).toBe(1200);
    expect(text.match(/^wide\.ts:\d+:1$/gm)?.length).toBe(Number(shown![1]));
  });

  it("searches .h files as C++ in a folder when language is cpp, and says to pass cpp for a .h that is not C", async () => {
    write("include/util.h", "#include <utility>\ntemplate <class T> T take(T& x) { return std::move(x); }\n");
    const folder = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "std::move($X)", language: "cpp", path: "include" },
    });
    expect(resultText(folder)).toContain("1 match in 1 file (searched 1 cpp file)");
    const file = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "template <class $T> $R $F($$$P) { $$$B }", path: "include/util.h" },
    });
    expect(file.isError).toBe(true);
    expect(resultText(file)).toContain('A .h file is read as C; if this header is C++, pass language "cpp".');
  });

  it("reports an unparseable pattern as an error with its position", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A,, )", language: "python" },
    });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("PATTERN_INVALID");
    expect(resultText(result)).toMatch(/line 1, column/);
  });

  it("reports a pattern that did not parse as an error, not as one matching any node", async () => {
    write("py/c.py", "class A:\n    pass\n");
    write("ts/i.ts", "export const x = 1;\n");
    for (const [pattern, language] of [
      ["class $C", "python"],
      ["import { $$$N } from $M", "typescript"],
    ] as const) {
      for (const tool of ["ast_grep", "ast_edit"] as const) {
        const args = tool === "ast_grep" ? { pattern, language } : { pattern, language, rewrite: "x" };
        const result = await registry().invoke(run, { tool, args });
        const text = resultText(result);
        expect({ pattern, tool, isError: result.isError }).toEqual({ pattern, tool, isError: true });
        expect(result.error?.code).toBe("PATTERN_INVALID");
        expect(text).toMatch(/does not parse as .* code at line 1, column 1/);
        expect(text).toContain("Parsed as: (");
        expect(text).not.toContain("matching any node");
      }
    }
  });

  it("says how a TypeScript pattern that found nothing reads as a type, with a pattern that finds the type", async () => {
    // `Array<$T>` reads as an expression (`f<string>`), as in ast-grep, and finds no type: the
    // answer says so, and the alias it suggests does find one.
    write("ts/t.ts", "type B = Array<number>;\ntype F = (v: number) => void;\nconst h = (v: number) => v;\n");
    const ask = async (pattern: string) =>
      resultText(await registry().invoke(run, { tool: "ast_grep", args: { pattern, path: "ts/t.ts" } }));
    expect(await ask("Array<$T>")).toContain(
      "Hint: if you meant a type, `Array<$T>` as a type (after `type __T =`) is a generic_type, which a pattern read as instantiation_expression (as ast-grep reads it) does not match: put it in the code around it (`type $_ = Array<$T>` finds it in a type alias), or search its text.",
    );
    expect(await ask("type $_ = Array<$T>")).toContain(
      "ts/t.ts:1:1\n  type B = Array<number>;\n  $T = number",
    );
    const fn = await ask("($A: $T) => $R");
    expect(fn).toContain("ts/t.ts:3:11");
    expect(fn).not.toContain("Hint");
    write("ts/t.ts", "type F = (v: number) => void;\n");
    expect(await ask("($A: $T) => $R")).toContain(
      "is a function_type, which a pattern read as arrow_function (as ast-grep reads it) does not match: put it in the code around it (`type $_ = ($A: $T) => $R` finds it in a type alias)",
    );
    expect(await ask("type $_ = ($A: $T) => $R")).toContain("1 match in 1 file");
    // A keyword as a type is named as one, not as a string literal.
    const keyword = await ask("string");
    expect(keyword).toContain("`string` as a type (after `type __T =`) is the keyword `string`,");
    expect(keyword).not.toContain("is a string,");
    // A call has no type reading: no hint.
    expect(await ask("zzz($A)")).not.toContain("Hint");
  });

  it("says that part of a pattern that found nothing did not parse, with the string reading that finds the code", async () => {
    // Only a string can follow `from`: `export * from $M` is an expression statement `export`
    // holding an ERROR (`* from $M`), which matched nothing silently; ast-grep refuses it. The
    // answer says so, and the pattern it suggests finds the re-exports.
    write("js/index.js", 'export * from "./a.js";\nexport { b, c } from "./b.js";\n');
    const ask = async (tool: string, pattern: string, path = "js/index.js") => {
      const args = tool === "ast_grep" ? { pattern, path } : { pattern, path, rewrite: "x" };
      return resultText(await registry().invoke(run, { tool, args }));
    };
    for (const tool of ["ast_grep", "ast_edit"])
      expect(await ask(tool, "export * from $M")).toContain(
        "no matches for `export * from $M` (searched 1 javascript file). The pattern parsed as expression_statement. " +
          "Part of the pattern did not parse: tree-sitter read `* from $M` as an ERROR, which is matched as a node of any kind " +
          "with the same children, so the pattern may not say what you meant. " +
          "Written as a string's text, $M parses: `export * from \"$M\"` (it matches strings in double quotes; write '$M' for single quotes).",
      );
    expect(await ask("ast_grep", 'export * from "$M"')).toContain(
      'js/index.js:1:1\n  export * from "./a.js";\n  $M = ./a.js',
    );
    expect(await ask("ast_grep", "export { $$$A } from $M")).toContain(
      "tree-sitter read `from $M` as an ERROR",
    );
    expect(await ask("ast_grep", 'export { $$$A } from "$M"')).toContain("$M = ./b.js\n  $A = b, c");
    // JSON's `{"k": $V}` holds the ERROR `"k": $V` and finds the pair whatever its value: a key
    // no object has legitimately finds nothing, and `{"missing": "$V"}` (strings only) could
    // find no more. ast-grep says nothing either. An ERROR that does not find what it says
    // (`[$A, $B]` finds no `[1, 2]`, in ast-grep neither) is still named.
    write("data/d.json", '{"n": 1}\n');
    write("data/a.json", "[1, 2]\n");
    const json = await ask("ast_grep", '{"missing": $V}', "data/d.json");
    expect(json).toContain("no matches");
    expect(json).not.toContain("did not parse");
    expect(await ask("ast_edit", '{"missing": $V}', "data/d.json")).not.toContain("did not parse");
    expect(await ask("ast_grep", '{"n": $V}', "data/d.json")).toContain("$V = 1");
    expect(await ask("ast_grep", "[$A, $B]", "data/a.json")).toContain(
      "tree-sitter read `$A, $B` as an ERROR",
    );
    // ast-grep warns only of a pattern that is an ERROR whole: of `[$A, $B]` it says nothing (and
    // refuses `export * from $M`); the answer does not claim it warns.
    expect(await ask("ast_grep", "[$A, $B]", "data/a.json")).not.toContain("ast-grep warns");
    // A pattern that parses says nothing of the kind.
    expect(await ask("ast_grep", "zzz($A)")).not.toContain("did not parse");
  });

  it("gives the TypeScript type-reading hint in no other language (Go's `func $F()` has no type alias to find)", async () => {
    // Go has a `type __T = ` wrapper too, but there `func $F()` as a type is a function_type
    // around an ERROR (the name): `type $_ = func $F()` finds no `type H = func()`.
    write("go/h.go", "package main\n\ntype H = func()\nfunc F() {}\n");
    const ask = async (pattern: string) =>
      resultText(await registry().invoke(run, { tool: "ast_grep", args: { pattern, path: "go/h.go" } }));
    expect(await ask("type $_ = func $F()")).toContain("no matches");
    expect(await ask("func $F()")).not.toContain("Hint");
  });

  it("lists a match on a token tree-sitter supplied (as ast-grep does) saying so, not as a blank line", async () => {
    // `a + ;` lacks the right operand: tree-sitter supplies a MISSING identifier there, which a
    // bare `$A` matches (empty), as ast-grep lists it (its text "", at 1:21); `$B` binds it.
    write("rs/m.rs", "fn f() { let x = a + ; }\n");
    const bare = resultText(
      await registry().invoke(run, { tool: "ast_grep", args: { pattern: "$A", path: "rs/m.rs" } }),
    );
    expect(bare).toContain(
      [
        "rs/m.rs:1:21",
        "  (no code: the code lacks an `identifier` here, which tree-sitter supplied to read the line `fn f() { let x = a + ; }`)",
        "  $A = (missing `identifier`: the code lacks it)",
      ].join("\n"),
    );
    const sum = resultText(
      await registry().invoke(run, { tool: "ast_grep", args: { pattern: "$A + $B", path: "rs/m.rs" } }),
    );
    expect(sum).toContain(
      ["rs/m.rs:1:18", "  a +", "  $A = a", "  $B = (missing `identifier`: the code lacks it)"].join("\n"),
    );
  });

  it("finds TypeScript statements split over lines, whatever was searched before", async () => {
    write(
      "ts/f.ts",
      [
        'import { x } from "y";',
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
      ].join("\n"),
    );
    const grep = async (pattern: string) =>
      resultText(await registry().invoke(run, { tool: "ast_grep", args: { pattern, path: "ts/f.ts" } }));
    // The ast-grep CLI 0.51.1 finds each of these once.
    expect(await grep("if ($C) return $V;")).toContain("1 match in 1 file");
    expect(await grep("if ($C) { $$$A } else { $$$B }")).toContain("ts/f.ts:7:3");
    expect(await grep("try { $$$A } catch ($E) { $$$B }")).toContain("ts/f.ts:13:3");
    // A pattern without a statement plan parses the whole file (and caches it): same answer after.
    expect(await grep("$A > $B")).toContain("1 match in 1 file");
    expect(await grep("if ($C) return $V;")).toContain("1 match in 1 file");
  });

  it("refuses a path outside the workspace", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "f()", path: "../x.py" },
    });
    expect(result.error?.code).toBe("GUARDRAIL_REFUSED");
  });

  it("asks for a language for a folder, listing the shipped ones", async () => {
    const result = await registry().invoke(run, { tool: "ast_grep", args: { pattern: "f()" } });
    expect(result.error?.code).toBe("LANGUAGE_REQUIRED");
    expect(resultText(result)).toContain("dart");
  });
});

describe("surfaces", () => {
  it("plan mode sees ast_grep but not ast_edit or resolve; an unwired run sees none", async () => {
    const reg = registry();
    expect(reg.toolsFor(run, "plan").map((t) => t.name)).toEqual(["ast_grep"]);
    expect(reg.toolsFor(run, "main").map((t) => t.name)).toEqual(["ast_grep", "ast_edit", "resolve"]);
    const bare = createRun({ workingDirectory: dir });
    expect(reg.toolsFor(bare, "main")).toEqual([]);
    await bare.dispose();
    expect([astGrepTool.tier, astEditTool.tier, resolveTool.tier]).toEqual(["read", "write", "write"]);
  });
});

describe("ast_grep and files that are not files", () => {
  it("refuses a FIFO as the path and searches a folder holding one without blocking on it", async () => {
    // Nothing ever writes to these: opened the blocking way, the search would never end.
    execFileSync("mkfifo", [join(dir, "py/pipe.py")]);
    symlinkSync(join(dir, "py/pipe.py"), join(dir, "py/link.py"));
    const reg = registry();
    const refused = await reg.invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A)", path: "py/pipe.py" },
    });
    expect(refused.error?.code).toBe("PATH_NOT_FOUND");
    expect(resultText(refused)).toContain("'py/pipe.py' is a FIFO, socket or device, not a file or folder");
    const found = await reg.invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A)", path: "py", language: "python" },
    });
    expect(resultText(found)).toContain("1 match in 1 file (searched 1 python file");
  });
});

describe("ast_edit and resolve", () => {
  it("stages without writing, then accept writes every file and lists them", async () => {
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "if ($X != null) $X.dispose()", rewrite: "$X?.dispose()", language: "dart" },
    });
    const text = resultText(staged);
    expect(text).toContain(
      "(proposed) 2 replacements in 2 files (searched 2 dart files; skipped 1 binary) —",
    );
    expect(text).toContain('edit_id "edit_1"');
    expect(text).toContain("-  if (a != null) a.dispose();");
    expect(text).toContain("+  a?.dispose();");
    expect(read("lib/a.dart")).toContain("if (a != null) a.dispose();");
    const accepted = await reg.invoke(run, {
      tool: "resolve",
      args: { edit_id: "edit_1", action: "accept" },
    });
    expect(accepted.isError).toBe(false);
    expect(accepted.changedFiles).toEqual([
      join(run.workingDirectory, "lib/a.dart"),
      join(run.workingDirectory, "lib/b.dart"),
    ]);
    expect(read("lib/a.dart")).toBe("void f() {\n  a?.dispose();\n  if (a != null) b.dispose();\n}\n");
    expect(read("lib/b.dart")).toBe("void g() {\n  c?.dispose();\n}\n");
    const again = await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(again.error?.code).toBe("UNKNOWN_EDIT");
    expect(resultText(again)).toContain("already accepted");
  });

  it("rewrites a CSS declaration with or without its optional last `;`, keeping the `;` it has", async () => {
    write("css/s.css", "a { color: red; }\nb { color: red }\n");
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "color: $V", rewrite: "background: $V", path: "css/s.css" },
    });
    expect(resultText(staged)).toContain("(proposed) 2 replacements in 1 file");
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("css/s.css")).toBe("a { background: red; }\nb { background: red }\n");
  });

  it("leaves a PHP `namespace { … }` alone when rewriting `namespace $N` (its block is no name)", async () => {
    const code = "<?php\nnamespace {\n  function f() {}\n}\nnamespace Old;\n";
    write("php/ns.php", code);
    const staged = await registry().invoke(run, {
      tool: "ast_edit",
      args: { pattern: "namespace $N", rewrite: "namespace Vendor$N", path: "php/ns.php" },
    });
    expect(resultText(staged)).toContain("(proposed) 1 replacement in 1 file");
    // The global namespace's block stays global: it is not the name `Vendor{ … }` would make of it.
    expect(resultText(staged)).toContain("+namespace VendorOld;");
    expect(resultText(staged)).not.toContain("Vendor{");
  });

  it("an empty rewrite deletes a CSS declaration with its `;`, leaving no `;` on its own", async () => {
    write(
      "css/d.css",
      "a { color: red; margin: 0; padding: 1px; }\n.b {\n  margin: 0 auto;\n  color: blue;\n}\n",
    );
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "margin: $$$V", rewrite: "", path: "css/d.css" },
    });
    expect(resultText(staged)).toContain("(proposed) 2 replacements in 1 file");
    expect(resultText(staged)).not.toMatch(/^\+\s*;/m);
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("css/d.css")).toBe("a { color: red; padding: 1px; }\n.b {\n  \n  color: blue;\n}\n");
  });

  it("discard drops the change and writes nothing", async () => {
    const reg = registry();
    await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "foo($A)", rewrite: "baz($A)", path: "py/m.py" },
    });
    const discarded = await reg.invoke(run, {
      tool: "resolve",
      args: { edit_id: "edit_1", action: "discard" },
    });
    expect(resultText(discarded)).toContain("discarded");
    expect(read("py/m.py")).toBe("foo(1, 2, 3)\nfoo(4)\nbar(5)\n");
    const unknown = await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_9", action: "accept" } });
    expect(unknown.error?.code).toBe("UNKNOWN_EDIT");
  });

  it("rejects the whole change when one file moved after staging", async () => {
    const reg = registry();
    await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "if ($X != null) $X.dispose()", rewrite: "$X?.dispose()", language: "dart" },
    });
    write("lib/b.dart", "void g() {\n  if (c != null) c.dispose(); // touched\n}\n");
    const result = await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(result.error?.code).toBe("EDIT_STALE");
    expect(resultText(result)).toContain("lib/b.dart");
    expect(read("lib/a.dart")).toContain("if (a != null) a.dispose();");
    expect(result.changedFiles).toEqual([]);
  });

  it("restores every file when a write fails mid-apply", async () => {
    let writes = 0;
    const failing = createResolveTool({
      ...nodeFileOperations,
      async writeFile(path, data, options) {
        if (++writes === 2) throw new Error("disk full (injected)");
        await nodeFileOperations.writeFile(path, data, options);
      },
    });
    const reg = createRegistry({ tools: [astGrepTool, astEditTool, failing], approval: "auto" });
    await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "if ($X != null) $X.dispose()", rewrite: "$X?.dispose()", language: "dart" },
    });
    const before = [read("lib/a.dart"), read("lib/b.dart")];
    const result = await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(result.error?.code).toBe("WRITE_FAILED");
    expect(resultText(result)).toContain("every file is as it was");
    expect([read("lib/a.dart"), read("lib/b.dart")]).toEqual(before);
  });

  it("refuses to write through a folder swapped for a symlink out of the working directory", async () => {
    const reg = registry();
    await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "foo($A)", rewrite: "baz($A)", path: "py/m.py" },
    });
    // The same bytes outside, so only the containment check can tell the swap.
    const outside = mkdtempSync(join(tmpdir(), "structural-outside-"));
    writeFileSync(join(outside, "m.py"), read("py/m.py"));
    rmSync(join(dir, "py"), { recursive: true });
    symlinkSync(outside, join(dir, "py"));
    try {
      const refused = await reg.invoke(run, {
        tool: "resolve",
        args: { edit_id: "edit_1", action: "accept" },
      });
      expect(refused.error?.code).toBe("GUARDRAIL_REFUSED");
      expect(resultText(refused)).toContain(`goes through a symlink to ${outside}`);
      expect(readFileSync(join(outside, "m.py"), "utf8")).toBe("foo(1, 2, 3)\nfoo(4)\nbar(5)\n");
      // Still pending: it can be discarded (nothing to check for a discard).
      const discarded = await reg.invoke(run, {
        tool: "resolve",
        args: { edit_id: "edit_1", action: "discard" },
      });
      expect(resultText(discarded)).toContain("edit_1 discarded");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("rejects a template naming an unbound metavariable", async () => {
    const result = await registry().invoke(run, {
      tool: "ast_edit",
      args: { pattern: "foo($A)", rewrite: "bar($B)", path: "py/m.py" },
    });
    expect(result.error?.code).toBe("TEMPLATE_INVALID");
    expect(resultText(result)).toContain("$B");
  });

  it("keeps CRLF line endings and reports skipped nested matches", async () => {
    write("py/n.py", "f(f(1))\r\nx = 2\r\n");
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "f($A)", rewrite: "g(\n$A)", path: "py/n.py" },
    });
    expect(resultText(staged)).toContain("1 nested match inside a replaced match skipped");
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("py/n.py")).toBe("g(\r\nf(1))\r\nx = 2\r\n");
  });

  it("skips a file that is not valid UTF-8 with a note, and keeps a BOM", async () => {
    write(
      "py/latin.py",
      Buffer.concat([Buffer.from("foo(1)  # caf"), Buffer.from([0xe9]), Buffer.from("\n")]),
    );
    write("py/bom.py", "\ufefffoo(2)\n");
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "foo($A)", rewrite: "baz($A)", path: "py", language: "python" },
    });
    const text = resultText(staged);
    expect(text).toContain("(proposed) 2 replacements in 2 files");
    expect(text).toContain("Skipped 1 matching file that is not valid UTF-8");
    expect(text).toContain("py/latin.py");
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(readFileSync(join(dir, "py/latin.py"))[13]).toBe(0xe9);
    expect(read("py/bom.py")).toBe("\ufeffbaz(2)\n");
    expect(read("py/m.py")).toBe("foo(1, 2, 3)\nbaz(4)\nbar(5)\n");
  });
});

describe("keywords the pattern does not write", () => {
  const tsFile = [
    'import { x } from "y";',
    "",
    "export async function load() {",
    "  for await (const chunk of stream()) use(chunk);",
    "  for (const item of items()) use(item);",
    "}",
    "",
    "function plain() {",
    "  x();",
    "}",
    "",
  ].join("\n");
  const pyFile = [
    "async def fetch():",
    "    yield from inner()",
    "    yield 1",
    "",
    "def plain():",
    "    pass",
    "",
  ].join("\n");

  it("ast_grep finds async functions, async defs and for await as ast-grep does, and not yield from", async () => {
    write("ts/k.ts", tsFile);
    write("py/k.py", pyFile);
    const reg = registry();
    const search = async (pattern: string, path: string) =>
      resultText(await reg.invoke(run, { tool: "ast_grep", args: { pattern, path } }));
    const functions = await search("function $F() { $$$B }", "ts/k.ts");
    expect(functions).toContain("2 matches in 1 file");
    expect(functions).toContain("ts/k.ts:3:8\n  async function load() {");
    expect(functions).toContain("ts/k.ts:8:1\n  function plain() {");
    const loops = await search("for (const $X of $Y) $S", "ts/k.ts");
    expect(loops).toContain("2 matches in 1 file");
    expect(loops).toContain("ts/k.ts:4:3\n  for await (const chunk of stream()) use(chunk);");
    const defs = await search("def $F(): $$$B", "py/k.py");
    expect(defs).toContain("2 matches in 1 file");
    expect(defs).toContain("py/k.py:1:1\n  async def fetch():");
    const yields = await search("yield $A", "py/k.py");
    expect(yields).toContain("1 match in 1 file");
    expect(yields).toContain("py/k.py:3:5\n  yield 1");
  });

  it("ast_edit leaves those matches unchanged, says how many and where, and rewrites them when the pattern writes the keyword", async () => {
    write("ts/k.ts", tsFile);
    const reg = registry();
    const staged = await reg.invoke(run, {
      tool: "ast_edit",
      args: { pattern: "function $F() { $$$B }", rewrite: "const $F = () => { $$$B };", path: "ts/k.ts" },
    });
    const text = resultText(staged);
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).toContain(
      "1 match left unchanged: the code there has `async`, which the pattern does not write and a rewrite would drop; write it in the pattern to rewrite that match (ts/k.ts:3:8).",
    );
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("ts/k.ts")).toContain("export async function load() {");
    expect(read("ts/k.ts")).toContain("const plain = () => { x(); };");

    const loops = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern: "for (const $X of $Y) $S", rewrite: "for (let $X of $Y) $S", path: "ts/k.ts" },
      }),
    );
    expect(loops).toContain("(proposed) 1 replacement in 1 file");
    expect(loops).toContain("1 match left unchanged: the code there has `await`");
    expect(loops).not.toContain("for (let chunk");

    const written = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: {
          pattern: "async function $F() { $$$B }",
          rewrite: "async function $F(): Promise<void> { $$$B }",
          path: "ts/k.ts",
        },
      }),
    );
    expect(written).toContain("(proposed) 1 replacement in 1 file");
    expect(written).not.toContain("left unchanged");
    expect(written).toContain("+export async function load(): Promise<void> {");
  });

  it("ast_edit stages nothing when every match passed over a keyword, and says why", async () => {
    write("py/k.py", "async def a():\n    pass\n\nasync def b():\n    pass\n");
    write("py/j.py", "class C:\n    async def c(self):\n        pass\n");
    const result = await registry().invoke(run, {
      tool: "ast_edit",
      args: {
        pattern: "def $F($$$P): $$$B",
        rewrite: "def $F($$$P) -> None: $$$B",
        path: "py",
        language: "python",
      },
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      "nothing staged: 3 matches left unchanged: the code there has `async`, which the pattern does not write and a rewrite would drop; write it in the pattern to rewrite those (py/j.py:2:5, py/k.py:1:1, py/k.py:4:1).",
    );
    expect(read("py/k.py")).toBe("async def a():\n    pass\n\nasync def b():\n    pass\n");
  });

  it("ast_edit leaves a Java method whose trailing modifier the pattern does not write, and says so", async () => {
    write("java/A.java", "class A {\n  public static void m() {}\n  public void n() {}\n}\n");
    const reg = registry();
    const text = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern: "public void $M() {}", rewrite: "public void $M() { run(); }", path: "java/A.java" },
      }),
    );
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).toContain(
      "1 match left unchanged: the code there has `static`, which the pattern does not write and a rewrite would drop; write it in the pattern to rewrite that match (java/A.java:2:3).",
    );
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("java/A.java")).toBe(
      "class A {\n  public static void m() {}\n  public void n() { run(); }\n}\n",
    );
  });

  it("ast_edit leaves a match on a token tree-sitter supplied (the #endif a } cuts off), and says so", async () => {
    // The `#ifdef` ends at the `}` closing `extern "C" {`: tree-sitter reads it with a MISSING
    // `#endif`, which the pattern's `#endif` matches, as in ast-grep (whose rewrite writes an
    // `#endif` before the `}`, the real one left after it).
    const source = 'extern "C" {\nint a;\n#ifdef __cplusplus\n}\n#endif\n#ifdef B\nint b;\n#endif\n';
    write("c/h.h", source);
    const reg = registry();
    const pattern = "#ifdef $X\n$$$B\n#endif";
    const found = resultText(await reg.invoke(run, { tool: "ast_grep", args: { pattern, path: "c/h.h" } }));
    expect(found).toContain("2 matches in 1 file");
    expect(found).toContain("c/h.h:3:1\n  #ifdef __cplusplus");
    const text = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern, rewrite: "#if defined($X)\n$$$B\n#endif", path: "c/h.h" },
      }),
    );
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    expect(text).toContain(
      "1 match left unchanged: the code there lacks `#endif`, which tree-sitter supplied to read code it cannot parse there (broken code, or valid code it misreads, as preprocessor lines that cut a { … } short) and the pattern matched (a token it writes, or a metavariable standing for it), so a rewrite would write the token where the code lacks it or build on the gap; rewrite that match by hand (c/h.h:3:1).",
    );
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("c/h.h")).toBe(source.replace("#ifdef B", "#if defined(B)"));
  });

  it("ast_edit leaves a match that runs on past a pattern read as an ERROR (Go's case $A:), and says so in plain words", async () => {
    const source = "package a\n\nfunc f(x int) {\n\tswitch x {\n\tcase 1:\n\t\tg()\n\tcase 2:\n\t}\n}\n";
    write("go/a.go", source);
    write("c/a.c", "#if FOO\nint x;\n#endif\n#if BAR\n#endif\n");
    const reg = registry();
    const text = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern: "case $A:", rewrite: "case $A, 9:", path: "go", language: "go" },
      }),
    );
    expect(text).toContain("(proposed) 1 replacement in 1 file");
    // Not the code's node types (`statement_list`): what the user can act on.
    expect(text).toContain(
      "1 match left unchanged: the pattern is only the start of the code matched there (it does not parse on its own), and a rewrite would drop the code after it; write the whole statement or block in the pattern, with $$$ for the code inside, to rewrite that match (go/a.go:5:2).",
    );
    // For a Go case, exactly what to write: the switch around it, on one line.
    const suggested = /e\.g\. `([^`]*)`/.exec(text)?.[1];
    expect(suggested).toBe("switch $X { $$$P case $A: $$$B $$$Q }");
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } });
    expect(read("go/a.go")).toBe(source.replace("case 2:", "case 2, 9:"));
    const followed = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: {
          pattern: "switch $X { $$$P case 1: $$$B $$$Q }",
          rewrite: "switch $X { $$$P case 1, 8: $$$B $$$Q }",
          path: "go",
          language: "go",
        },
      }),
    );
    expect(followed).toContain("(proposed) 1 replacement in 1 file");
    expect(followed).not.toContain("left unchanged");
    await reg.invoke(run, { tool: "resolve", args: { edit_id: "edit_2", action: "accept" } });
    expect(read("go/a.go")).toContain("case 1, 8:");
    expect(read("go/a.go")).toContain("g()");
    const c = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern: "#if $X", rewrite: "#if $X || 1", path: "c", language: "c" },
      }),
    );
    expect(c).toBe(
      "nothing staged: 1 match left unchanged: the code there has `#endif`, which the pattern does not write and a rewrite would drop; write it in the pattern to rewrite that match (c/a.c:4:1); " +
        "1 match left unchanged: the pattern is only the start of the code matched there (it does not parse on its own), and a rewrite would drop the code after it; write the whole statement or block in the pattern, with $$$ for the code inside, to rewrite that match (c/a.c:1:1).",
    );
    // `#ifdef $X`, read with the `#endif` tree-sitter adds, is an `#ifdef`'s start the same way:
    // neither its lines nor its `#endif` may be dropped.
    const ifdef = "#ifdef FOO\nint x;\n#endif\n#ifdef BAR\n#endif\n";
    write("c/b.c", ifdef);
    const started = resultText(
      await reg.invoke(run, {
        tool: "ast_edit",
        args: { pattern: "#ifdef $X", rewrite: "#ifdef $X\nint y;", path: "c/b.c", language: "c" },
      }),
    );
    expect(started).toContain("nothing staged: ");
    expect(started).toContain("(c/b.c:1:1)");
    expect(started).toContain("(c/b.c:4:1)");
    expect(read("c/b.c")).toBe(ifdef);
  });
});

describe("a file named by path", () => {
  // Over the 2 MiB a folder's walk skips, in few nodes: one long string.
  const bigPython = `x = "${"a".repeat(2_500_000)}"\nfoo(7)\n`;

  it("is searched whatever its size, while a folder's walk still skips it", async () => {
    write("py/big.py", bigPython);
    const named = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A)", path: "py/big.py" },
    });
    expect(named.isError).toBe(false);
    expect(resultText(named)).toContain("1 match in 1 file (searched 1 python file)");
    expect(resultText(named)).toContain("$A = 7");
    const walked = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A)", path: "py", language: "python" },
    });
    expect(resultText(walked)).toContain("(searched 1 python file; skipped 1 over 2 MiB)");
  });

  it("is skipped by a folder's walk over the limit that search applied, which the line names", async () => {
    write("py/mid.py", `x = "${"a".repeat(2000)}"\nfoo(7)\n`);
    const spec = parser.spec("python");
    const pattern = await parser.compile(spec, "foo($A)");
    const target = join(dir, "py");
    const outcome = await searchFiles({
      parser,
      spec,
      pattern,
      workingDirectory: dir,
      target,
      maxFileBytes: 1536,
    });
    expect(outcome).toMatchObject({ skippedLarge: 1, maxFileBytes: 1536 });
    expect(searchedLine(outcome, { spec, target, isFile: false })).toBe(
      "searched 1 python file; skipped 1 over 1.5 KiB",
    );
  });

  it("is rewritten whatever its size", async () => {
    write("py/big.py", bigPython);
    const result = await registry().invoke(run, {
      tool: "ast_edit",
      args: { pattern: "foo($A)", rewrite: "bar($A)", path: "py/big.py" },
    });
    expect(resultText(result)).toContain("(proposed) 1 replacement in 1 file (searched 1 python file)");
    expect(resultText(result)).toContain("+bar(7)");
  });

  it("over 16 MiB, or binary, is an error rather than 'no matches'", async () => {
    write("py/huge.py", `x = "${"a".repeat(17 * 1024 * 1024)}"\nfoo(7)\n`);
    write("py/blob.py", Buffer.from([0x66, 0x00, 0x6f, 0x6f]));
    for (const tool of ["ast_grep", "ast_edit"] as const) {
      const args = {
        pattern: "foo($A)",
        path: "py/huge.py",
        ...(tool === "ast_edit" ? { rewrite: "x" } : {}),
      };
      const huge = await registry().invoke(run, { tool, args });
      expect(huge.isError).toBe(true);
      expect(huge.error?.code).toBe("FILE_TOO_LARGE");
      expect(resultText(huge)).toContain(
        "'py/huge.py' is 17 MiB; a file named by path is searched up to 16 MiB",
      );
      const blob = await registry().invoke(run, { tool, args: { ...args, path: "py/blob.py" } });
      expect(blob.isError).toBe(true);
      expect(blob.error?.code).toBe("FILE_NOT_TEXT");
      expect(resultText(blob)).toContain("'py/blob.py' is binary");
    }
  });

  it("lists a match on a very long line cut short", async () => {
    write("py/long.py", `foo("${"b".repeat(100_000)}")\n`);
    const result = await registry().invoke(run, {
      tool: "ast_grep",
      args: { pattern: "foo($A)", path: "py/long.py" },
    });
    const text = resultText(result);
    expect(text).toContain("1 match in 1 file");
    expect(text).toContain("… (99807 more characters)");
    expect(text.length).toBeLessThan(1000);
  });
});

describe("code nested deeper than the stack", () => {
  it("does not fail a search: deep captures, thousands of comments, and long runs of tokens", async () => {
    const depth = 50_000;
    write("ts/deep.ts", `foo(1);\nconst x = ${"[".repeat(depth)}${"]".repeat(depth)};\n`);
    write("ts/comments.ts", `function f() {\n${"// c\n".repeat(depth)}foo(1);\n}\n`);
    write("ts/holes.ts", `const h = [${",".repeat(depth)}1];\nconst k = [1];\n`);
    const search = (pattern: string) =>
      registry().invoke(run, { tool: "ast_grep", args: { pattern, language: "typescript", max_results: 1 } });
    const runs = await search("[$$$A]");
    expect(runs.isError).toBe(false);
    // 50 002 arrays: the search stops at the count's bound.
    expect(resultText(runs)).toContain("more than 10000 matches");
    const commented = await search("function $F() { foo(1) }");
    expect(commented.isError).toBe(false);
    expect(resultText(commented)).toContain("1 match in 1 file");
    // 50,000 commas passed over one by one: that attempt is abandoned, and said so.
    const holes = await search("[1]");
    expect(holes.isError).toBe(false);
    expect(resultText(holes)).toContain("1 match in 1 file");
    expect(resultText(holes)).toContain(
      "1 candidate(s) were abandoned: the code there is nested too deeply to match.",
    );
  }, 90_000);
});

describe("files left out by ignore rules", () => {
  /** A folder holding the workspace, so a `.ignore` can sit above it; the run works in `ws`. */
  let outer: string;
  let ws: string;
  let wsRun: Run;
  const put = (path: string, text: string) => {
    mkdirSync(join(ws, path, ".."), { recursive: true });
    writeFileSync(join(ws, path), text);
  };
  const grep = (args: Record<string, unknown>) =>
    registry()
      .invoke(wsRun, { tool: "ast_grep", args: { pattern: "foo($A)", language: "python", ...args } })
      .then(resultText);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, stdio: "ignore" });
  beforeEach(() => {
    outer = mkdtempSync(join(tmpdir(), "structural-ignored-"));
    ws = join(outer, "ws");
    mkdirSync(ws);
    put("py/m.py", "foo(1)\n");
    put("py/n.py", "foo(2)\n");
    wsRun = createRun({ workingDirectory: ws, resources: [[structuralParserKey, parser]] });
  });
  afterEach(async () => {
    await wsRun.dispose();
    rmSync(outer, { recursive: true, force: true });
  });

  it("names the rule and file that left out every file, and how to search them anyway", async () => {
    writeFileSync(join(outer, ".ignore"), "# everything\n*\n");
    const rule = `${join(outer, ".ignore")}:2 \`*\``;
    // The folder named: its files are ignored one by one.
    const named = await grep({ path: "py" });
    expect(named).toContain(`(searched 0 python files; skipped 2 python files ignored by ${rule}).`);
    expect(named).toContain(
      'To search ignored code anyway, name it as path: a file is searched even if ignored (e.g. path "py/m.py"). There is no option to turn ignore rules off.',
    );
    // The rule is named once, in the count; the note does not repeat what the count says.
    expect(named).not.toContain("left out what is counted as ignored");
    expect(named).not.toContain("The folder searched is itself ignored");
    // The whole workspace: the folder is left out, and naming it would not help.
    const whole = await grep({});
    expect(whole).toContain(`(searched 0 python files; skipped 1 folder ignored by ${rule}).`);
    expect(whole).toContain('"py" is ignored with its files: name one of them (e.g. path "py/m.py")');
    expect(whole).not.toContain('e.g. path "py"');
    // The way the result gives works.
    expect(await grep({ path: "py/m.py" })).toContain("1 match in 1 file (searched 1 python file)");
  });

  it("names a .gitignore rule of a git repository that left out a folder, which naming searches", async () => {
    git("init", "-q");
    put(".gitignore", "node_modules\nbuild/\n");
    mkdirSync(join(ws, "build"));
    renameSync(join(ws, "py"), join(ws, "build", "py"));
    const whole = await grep({});
    expect(whole).toContain("(searched 0 python files; skipped 1 folder ignored by .gitignore:2 `build/`).");
    expect(whole).toContain('a folder is searched, the rules applying inside it (e.g. path "build")');
    expect(await grep({ path: "build" })).toContain("2 matches in 2 files (searched 2 python files)");
  });

  it("does not count an ignored folder that holds no file of the language (a project's dist/, in a search of another language)", async () => {
    git("init", "-q");
    put(".gitignore", "dist/\ngen/\n");
    put("dist/index.js", "foo(1)\n");
    put("dist/deep/more.js", "foo(2)\n");
    // No python file searched, none left out: the plain answer, no note about ignore rules.
    rmSync(join(ws, "py"), { recursive: true });
    const none = await grep({});
    expect(none).toContain("no matches for `foo($A)` (searched 0 python files).");
    expect(none).not.toContain("ignore");
    // A python file in an ignored folder: that folder is counted and named, not dist/.
    put("gen/deep/g.py", "foo(3)\n");
    const some = await grep({});
    expect(some).toContain("(searched 0 python files; skipped 1 folder ignored by .gitignore:2 `gen/`).");
    expect(some).not.toContain("dist");
    expect(some).toContain('(e.g. path "gen")');
    expect(await grep({ path: "gen" })).toContain("1 match in 1 file (searched 1 python file)");
  });

  it("says nothing of ignore rules in a workspace that is itself in an ignored folder of a repository around it", async () => {
    execFileSync("git", ["init", "-q"], { cwd: outer, stdio: "ignore" });
    writeFileSync(join(outer, ".gitignore"), "ws/\n");
    put(".gitignore", "dist/\n");
    put("dist/d.py", "foo(3)\n");
    put("py/gen/g.py", "foo(4)\n");
    put("py/.gitignore", "gen/\n");
    // Every search runs there: the workspace is not ignored code asked for, dist/ is not news.
    expect(await grep({})).toContain("2 matches in 2 files (searched 2 python files)\n");
    expect(await grep({ path: "py" })).toContain("2 matches in 2 files (searched 2 python files)\n");
  });

  it("quotes a rule holding a backtick, or spaces, so that it reads whole; the path it gives works", async () => {
    git("init", "-q");
    put(".gitignore", "a`b/\nmy dir/\n");
    rmSync(join(ws, "py"), { recursive: true });
    put("a`b/x.py", "foo(1)\n");
    put("my dir/y z.py", "foo(2)\n");
    const whole = await grep({});
    expect(whole).toContain(
      "(searched 0 python files; skipped 1 folder ignored by .gitignore:1 `` a`b/ ``, 1 folder by .gitignore:2 `my dir/`).",
    );
    expect(whole).toContain('(e.g. path "a`b")');
    expect(await grep({ path: "a`b" })).toContain("1 match in 1 file (searched 1 python file)");
    expect(await grep({ path: "my dir" })).toContain("1 match in 1 file (searched 1 python file)");
  });

  it("names an info/exclude rule of a git repository, and counts files ignored in a named ignored folder", async () => {
    git("init", "-q");
    writeFileSync(join(ws, ".git", "info", "exclude"), "py/n.py\n");
    const some = await grep({ path: "py" });
    // Some files were searched and the folder is not ignored: the result stays as it was.
    expect(some).toContain("1 match in 1 file (searched 1 python file)\n");
    writeFileSync(join(ws, ".git", "info", "exclude"), "py/*.py\n");
    expect(await grep({ path: "py" })).toContain(
      "(searched 0 python files; skipped 2 python files ignored by .git/info/exclude:1 `py/*.py`).",
    );
    // A folder ignored as a whole is searched when named; what rules in it leave out is counted.
    writeFileSync(join(ws, ".git", "info", "exclude"), "py/\n");
    put("py/.ignore", "n.py\n");
    const inIgnored = await grep({ path: "py" });
    expect(inIgnored).toContain(
      "1 match in 1 file (searched 1 python file; skipped 1 python file ignored by py/.ignore:1 `n.py`)\n",
    );
    expect(inIgnored).toContain(
      "The folder searched is itself ignored (.git/info/exclude:1 `py/`); it was searched as it was named, the rules applying inside it.",
    );
    const edit = await registry().invoke(wsRun, {
      tool: "ast_edit",
      args: { pattern: "bar($A)", rewrite: "baz($A)", language: "python", path: "py" },
    });
    expect(resultText(edit)).toContain(
      "nothing staged: no matches for `bar($A)` (searched 1 python file; skipped 1 python file ignored by py/.ignore:1 `n.py`).",
    );
  });
});
