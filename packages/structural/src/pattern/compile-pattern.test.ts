import { afterAll, describe, expect, it } from "vitest";
import { trackTrees } from "../__fixtures__/tree-tracker.js";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { gluedMetaVariables, parseMetaVariable, substituteExpando } from "./metavariable.js";
import { bodyHint } from "./parse-failure.js";

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
    expect(substituteExpando("$_GET[$K] + $_G + $GLOBALS", "µ", ["_GET", "GLOBALS"])).toBe(
      "$_GET[µK] + µ_G + $GLOBALS",
    );
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

  it("rejects a pattern that parses only with a token tree-sitter added, saying which and where", async () => {
    for (const [language, source, completed] of [
      ["python", "foo($A, $B", "foo($A, $B)"],
      ["javascript", "foo($A, $B", "foo($A, $B)"],
      ["cpp", "foo($A, $B", "foo($A, $B)"],
      ["typescript", "[$A, $B", "[$A, $B]"],
      ["python", "def f(:\n    pass", "def f():\n    pass"],
    ] as const) {
      await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
        code: "PATTERN_INVALID",
        message: expect.stringContaining(
          `the pattern is not complete ${language} code: it parses only with a missing \`${completed.at(-1) === "]" ? "]" : ")"}\` at line 1`,
        ),
      });
      await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
        message: expect.stringContaining(`Complete the pattern, e.g. \`${completed}\``),
      });
      // The completed pattern compiles.
      await expect(parser.compile(parser.spec(language), completed)).resolves.toBeDefined();
    }
  });

  it("reads a conditional directive without its #endif as its start, its lines trailing (as ast-grep)", async () => {
    const code = "#ifdef FOO\nint a;\n#endif\n#ifndef BAR\nint b;\nint c;\n#endif\n";
    for (const [language, source, matched] of [
      ["c", "#ifdef $X", "#ifdef FOO\nint a;\n#endif"],
      ["cpp", "#ifndef $X", "#ifndef BAR\nint b;\nint c;\n#endif"],
    ] as const) {
      const spec = parser.spec(language);
      const pattern = await parser.compile(spec, source);
      const tree = await parser.parse(spec, code);
      try {
        // The lines and `#endif` the pattern does not write trail: a rewrite leaves the match alone.
        expect(
          findMatches(pattern, tree, code).matches.map((m) => ({ text: m.text, trailing: m.trailingCode })),
        ).toEqual([{ text: matched, trailing: true }]);
      } finally {
        tree.delete();
      }
    }
  });

  it("hints, for a C conditional directive opened inside another, to close it with its #endif", async () => {
    // tree-sitter reads `#ifdef $X⏎#ifdef $Y` as an ERROR of four tokens, which no code node has
    // (ast-grep matches nothing); the hinted pattern is a block that starts with the inner one,
    // read as ast-grep reads it (not as the ERROR a function body around it makes of it).
    const code =
      "#ifdef A\n#ifdef B\nint b;\n#endif\nint a;\n#endif\n#ifdef C\nint c;\n#endif\n#ifdef D\n#endif\n";
    const spec = parser.spec("c");
    const unparsed = (await parser.compile(spec, "#ifdef $X\n#ifdef $Y")).unparsed ?? "";
    expect(unparsed).toContain(
      "Hint: a conditional directive inside another is a block of its own, with its `#endif`: write it, e.g. `#ifdef $X\n#ifdef $Y\n$$$\n#endif`",
    );
    const pattern = await parser.compile(spec, "#ifdef $X\n#ifdef $Y\n$$$B\n#endif");
    expect(pattern.unparsed).toBeUndefined();
    const tree = await parser.parse(spec, code);
    try {
      const { matches } = findMatches(pattern, tree, code);
      expect(matches.map((m) => m.text)).toEqual(["#ifdef A\n#ifdef B\nint b;\n#endif\nint a;\n#endif"]);
      expect(matches[0]?.bindings.get("B")?.text).toBe("int b;");
    } finally {
      tree.delete();
    }
  });

  it("rejects a single metavariable missing a token, but not a $$$ or a parameter missing one", async () => {
    // Go's `var $X` is a declaration without its type: its `$X` would take a whole `y = 2`, and a
    // rewrite to `var $X = nil` would give `var y = 2 = nil`.
    for (const [source, column] of [
      ["var $X", 7],
      ["type $T", 8],
    ] as const) {
      await expect(parser.compile(parser.spec("go"), source)).rejects.toMatchObject({
        code: "PATTERN_INVALID",
        message: expect.stringContaining(
          `it parses only with a missing type_identifier at line 1, column ${column}`,
        ),
      });
    }
    // A type parameter or a run of them written as a metavariable lacks its constraint.
    for (const source of ["func $F[$$$T]($$$P) $R { $$$B }", "func $F[$T]($P) $R { $$$B }"])
      expect((await parser.compile(parser.spec("go"), source)).rootType).toBe("function_declaration");
  });

  it("rejects a header without its body, never reading it as a metavariable matching any node", async () => {
    for (const [language, source, hint] of [
      ["python", "class $C", "`class $C: $$$B`"],
      ["python", "if $C", "`if $C: $$$B`"],
      ["typescript", "do $S while ($C);", "`do { $$$B } while ($C);`"],
      // Not C++'s class member `do S while(C);` (a field of type `do`), which matches nothing.
      ["cpp", "do $S while ($C);", "`do { $$$B } while ($C);`"],
    ] as const) {
      await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
        code: "PATTERN_INVALID",
        message: expect.stringMatching(
          new RegExp(
            `^the pattern does not parse as ${language} code at line 1, column 1[^]*Hint:[^]*Parsed as: \\(`,
          ),
        ),
      });
      await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
        message: expect.stringContaining(hint),
      });
    }
  });

  it("hints the statement around a clause that is no pattern alone, and that statement matches", async () => {
    for (const [language, source, statement, code] of [
      ["python", "except $E as $N: $$$B", "try", "try:\n    f()\nexcept ValueError as e:\n    g(e)\n"],
      ["python", "except $E as $N", "try", "try:\n    f()\nexcept ValueError as e:\n    g(e)\n"],
      ["python", "except $E:\n    $$$B", "try", "try:\n    f()\nexcept ValueError:\n    g()\n"],
      ["python", "finally: $$$B", "try", "try:\n    f()\nfinally:\n    g()\n"],
      ["python", "elif $C: $$$B", "if", "if a:\n    f()\nelif b:\n    g()\n"],
      ["python", "else:  $$$B", "if", "if a:\n    f()\nelse:\n    g()\n"],
      ["python", "case $P:\n    $$$B", "match", "match x:\n    case 1:\n        f()\n"],
      ["typescript", "else { $$$B }", "if", "if (a) { f(); } else { g(); }\n"],
      ["c", "else { $$$B }", "if", "void h() { if (a) { f(); } else { g(); } }\n"],
      ["go", "else { $$$B }", "if", "package p\nfunc h() {\n\tif a { f() } else { g() }\n}\n"],
    ] as const) {
      const spec = parser.spec(language);
      const error = await parser.compile(spec, source).then(
        () => undefined,
        (caught: unknown) => caught as { code: string; message: string },
      );
      expect(error?.code, `${language} ${source}`).toBe("PATTERN_INVALID");
      expect(error?.message).toContain(`is a clause of a${statement === "if" ? "n" : ""} \`${statement}\``);
      if (language === "python")
        expect(error?.message).toContain(
          `That matches a${statement === "if" ? "n" : ""} \`${statement}\` whose`,
        );
      const suggested = /e\.g\. `([^`]*)`/.exec(error?.message ?? "")?.[1] ?? "";
      const pattern = await parser.compile(spec, suggested);
      const tree = await parser.parse(spec, code);
      try {
        const matches = findMatches(pattern, tree, code).matches;
        expect(
          matches.map((m) => m.text.split(/[\s(:]/)[0]),
          `${language} ${suggested}`,
        ).toEqual([statement]);
      } finally {
        tree.delete();
      }
    }
  });

  it("hints, for a Go case, the switch around it on one line, which matches each switch, as ast-grep does", async () => {
    const spec = parser.spec("go");
    const code =
      "package p\n\nfunc f(x int, c chan int) {\n\tswitch x {\n\tcase 1:\n\t\tg()\n\tcase 2:\n\t\th()\n\t\tk()\n\tdefault:\n\t}\n\tselect {\n\tcase v := <-c:\n\t\th(v)\n\t}\n}\n";
    for (const source of ["case $A: $$$B"]) {
      const error = await parser.compile(spec, source).then(
        () => undefined,
        (caught: unknown) => caught as { code: string; message: string },
      );
      expect(error?.code, source).toBe("PATTERN_INVALID");
      expect(error?.message).toContain("is a clause of a `switch` or `select` statement");
      const suggested = /e\.g\. `([^`]*)`/.exec(error?.message ?? "")?.[1] ?? "";
      expect(suggested).toBe("switch $X { $$$P case $A: $$$B $$$Q }");
      const tree = await parser.parse(spec, code);
      try {
        const [match, ...rest] = findMatches(await parser.compile(spec, suggested), tree, code).matches;
        expect(rest, suggested).toEqual([]);
        expect(match?.text.startsWith("switch x {")).toBe(true);
        expect(match?.bindings.get("B")?.text).toBe("g()\n");
      } finally {
        tree.delete();
      }
    }
    // Written on several lines, with its statements written out, or receiving from a channel
    // (a `select`'s, also with `:=`): what it suggests parses and matches the statement.
    const tree = await parser.parse(spec, code);
    try {
      for (const [source, expected, start, body] of [
        ["case $A:\n\t$$$B", "switch $X { $$$P case $A: $$$B $$$Q }", "switch x {", "g()\n"],
        ["case 2: h(); k()", "switch $X { $$$P case 2: $$$B $$$Q }", "switch x {", "h()\n\t\tk()\n"],
        ["case v := <-$C: $$$B", "select { $$$P case v := <-$C: $$$B $$$Q }", "select {", "h(v)\n"],
      ] as const) {
        const message = await parser.compile(spec, source).then(
          (compiled) => compiled.unparsed ?? "",
          (caught: unknown) => (caught as Error).message,
        );
        const suggested = /e\.g\. `([^`]*)`/.exec(message)?.[1] ?? "";
        expect(suggested, source).toBe(expected);
        const matches = findMatches(await parser.compile(spec, suggested), tree, code).matches;
        expect(matches.length, suggested).toBe(1);
        expect(matches[0]?.text.startsWith(start), suggested).toBe(true);
        expect(matches[0]?.bindings.get("B")?.text, suggested).toBe(body);
      }
    } finally {
      tree.delete();
    }
    // A type switch's case: the forms the hint gives for one, followed, match it.
    const typeSwitch =
      "package p\n\nfunc f(x any) {\n\tswitch v := x.(type) {\n\tcase int:\n\t\tg(v)\n\tcase string:\n\t}\n\tswitch x.(type) {\n\tcase int:\n\t\tg()\n\t}\n}\n";
    const hint = await parser.compile(spec, "case int: $$$B").then(
      () => "",
      (caught: unknown) => (caught as Error).message,
    );
    // `int` can only be a type: the type switch is the example, the form naming its value follows.
    expect(/e\.g\. `([^`]*)`/.exec(hint)?.[1]).toBe("switch $X.(type) { $$$P case int: $$$B $$$Q }");
    const forms = [...hint.matchAll(/`(switch [^`]*\(type\) \{ … \})`/g)].map((found) => found[1] ?? "");
    expect(forms).toEqual(["switch $V := $X.(type) { … }"]);
    const typeTree = await parser.parse(spec, typeSwitch);
    try {
      const bodies = [];
      for (const form of [...forms, "switch $X.(type) { … }"]) {
        const written = form.replace("…", () => "$$$P case int: $$$B $$$Q");
        const found = findMatches(await parser.compile(spec, written), typeTree, typeSwitch).matches;
        bodies.push(...found.map((match) => match.bindings.get("B")?.text));
      }
      expect(bodies).toEqual(["g(v)\n", "g()\n"]);
    } finally {
      typeTree.delete();
    }
    // The clause alone with its `:` stays a search pattern (each case, its statements trailing);
    // the hint is what it says when nothing matched.
    const pattern = await parser.compile(spec, "case $A:");
    expect(pattern.unparsed).toContain("e.g. `switch $X { $$$P case $A: $$$B $$$Q }`");
  });

  it("refuses a Go case whose value is no metavariable (ast-grep matches nothing), saying which clauses are patterns alone", async () => {
    const spec = parser.spec("go");
    const code =
      'package p\n\nfunc f(x any, s, t string) {\n\tswitch x.(type) {\n\tcase int:\n\t\tg()\n\t}\n\tswitch s {\n\tcase "a:b":\n\t\th()\n\tcase `c:d`, \':\':\n\t}\n\tswitch t {\n\tcase /* e: */ "e":\n\t}\n}\n';
    const tree = await parser.parse(spec, code);
    try {
      for (const [source, expected, start] of [
        ["case int:", "switch $X.(type) { $$$P case int: $$$B $$$Q }", "switch x.(type) {"],
        // A `:` inside a string or a rune is not the clause's.
        ['case "a:b":', 'switch $X { $$$P case "a:b": $$$B $$$Q }', "switch s {"],
        ["case `c:d`, ':':", "switch $X { $$$P case `c:d`, ':': $$$B $$$Q }", "switch s {"],
        // Nor one inside a comment.
        ['case /* e: */ "e":', 'switch $X { $$$P case /* e: */ "e": $$$B $$$Q }', "switch t {"],
      ] as const) {
        const message = await parser.compile(spec, source).then(
          () => "",
          (caught: unknown) => (caught as Error).message,
        );
        expect(message, source).toContain(
          "A clause is a pattern alone only as its head, a `case` with a metavariable in its value or `default:` (`case $A:` finds every case",
        );
        expect(message, source).not.toContain("alone finds each case");
        const suggested = /e\.g\. `((?:[^`]|`[^`]*`(?!;| \())*?)`(?= \(|:)/.exec(message)?.[1] ?? "";
        expect(suggested, source).toBe(expected);
        const matches = findMatches(await parser.compile(spec, suggested), tree, code).matches;
        expect(
          matches.map((match) => match.text.slice(0, start.length)),
          suggested,
        ).toEqual([start]);
      }
    } finally {
      tree.delete();
    }
  });

  it("hints a Ruby body with its `end`, never braces, and none for a pattern that has its `end`", async () => {
    await expect(parser.compile(parser.spec("ruby"), "def $F")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
      message: expect.stringContaining("Hint: `def` needs its body, e.g. `def $F\n  $$$B\nend`."),
    });
    // With its `end` (refused otherwise, or read whole as an ERROR): no body is missing.
    expect(bodyHint("class $C < $B\n  $$$\nend", "ruby")).toBe("");
    expect(bodyHint("class $C < $B", "ruby")).toBe(
      " Hint: `class` needs its body, e.g. `class $C < $B\n  $$$B\nend`.",
    );
  });

  it("marks a pattern tree-sitter read whole as an ERROR, which a search reports when it finds nothing", async () => {
    // A module cannot be an identifier: ast-grep matches the ERROR as a node of any kind.
    const compiled = await parser.compile(parser.spec("typescript"), "import { $$$N } from $M");
    expect(compiled.rootType).toBeUndefined();
    expect(compiled.unparsed).toMatch(/^the pattern does not parse as typescript code at line 1/);
    expect((await parser.compile(parser.spec("typescript"), "import { $$$N } from 'm'")).unparsed).toBe(
      undefined,
    );
  });

  it("reads catch and finally clauses as such, not as class methods named so", async () => {
    const spec = parser.spec("typescript");
    expect((await parser.compile(spec, "catch ($E) { $$$B }")).rootType).toBe("catch_clause");
    expect((await parser.compile(spec, "finally { $$$B }")).rootType).toBe("finally_clause");
    // A member named by a statement word is no reading of a fragment in a wrapper.
    await expect(parser.compile(spec, "else { $$$B }")).rejects.toMatchObject({ code: "PATTERN_INVALID" });
  });

  it("rejects a pattern of several nodes", async () => {
    await expect(parser.compile(parser.spec("python"), "a\nb")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
    });
    // Not read as the body of the Python wrapper, whose first line alone it indents.
    await expect(parser.compile(parser.spec("python"), "x = 1\n    y = 2")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
      message: expect.stringContaining("2 separate nodes"),
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

  it("takes the annotation an ERROR holds alone as the pattern, never another node alone in an ERROR", async () => {
    for (const [language, source, rootType] of [
      ["java", "@Override", "marker_annotation"],
      ["java", "@SuppressWarnings($A)", "annotation"],
      ["typescript", "@Component($$$A)", "decorator"],
      ["python", "@$DEC", "decorator"],
      ["dart", "@override", "annotation"],
    ] as const) {
      const compiled = await parser.compile(parser.spec(language), source);
      expect({ source, rootType: compiled.rootType }).toEqual({ source, rootType });
      expect(compiled.unparsed).toBeUndefined();
    }
    // Tree-sitter puts a stray `)` alone in an ERROR too: a typo, not a pattern for every `)`.
    await expect(parser.compile(parser.spec("java"), ")")).rejects.toMatchObject({ code: "PATTERN_INVALID" });
    // A Rust lifetime alone would be a loop label (matching none), C#'s `[$A]` an indexer's
    // argument list (matching the `[i]` of `a[i]`, which a rewrite to `[$A, 0]` would corrupt).
    for (const [language, source] of [
      ["rust", "'static"],
      ["rust", "'_"],
      ["csharp", "[$A]"],
    ] as const) {
      await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
        code: "PATTERN_INVALID",
        message: expect.stringContaining(`does not parse as ${language} code`),
      });
    }
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
    // Its closing `?>` goes too, and an error names the line as written, `<?php` line included.
    expect((await parser.compile(spec, "<?php echo $X; ?>")).rootType).toBe("echo_statement");
    await expect(parser.compile(spec, "<?php\nfoo($A,, )")).rejects.toMatchObject({
      message: expect.stringContaining("at line 2, column"),
    });
    // Superglobals are PHP's variables, not wildcards or metavariables.
    const superglobal = await parser.compile(spec, "$_GET[$K]");
    expect(superglobal.singleNames).toEqual(new Set(["K"]));
    expect(superglobal.literals).toEqual(expect.arrayContaining(["_GET"]));
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

  it("keeps what braces already meant when the statement reading does not hold", async () => {
    // Each pattern with what it must match; a `;` after the lone $$$ would make a class member
    // of some (a constructor named `switch`), or a wildcard of a Ruby hash.
    const cases: [string, string, string, string][] = [
      [
        "csharp",
        "switch ($X) { $$$C }",
        "class A { void M() { switch (x) { case 1: break; } } }",
        "switch (x) { case 1: break; }",
      ],
      ["csharp", "new[] { $$$E }", "class A { void M() { var a = new[] { 1, 2 }; } }", "new[] { 1, 2 }"],
      ["csharp", "void $M() { $$$B }", "class A { void M() { a(); } }", "void M() { a(); }"],
      [
        "java",
        "switch ($X) { $$$C }",
        "class A { void m() { switch (x) { case 1: break; } } }",
        "switch (x) { case 1: break; }",
      ],
      ["go", "switch $X { $$$C }", "package p\nfunc f() { switch x { case 1: } }", "switch x { case 1: }"],
      ["ruby", "{ $$$P }", "h = { a: 1 }\nxs.each { |x| p x }", "{ a: 1 }"],
      ["cpp", "if ($C) { $$$B }", "void f() { if (x) { y(); } }", "if (x) { y(); }"],
      ["bash", "{ $$$B }", "{ echo a; }", "{ echo a; }"],
    ];
    for (const [language, source, code, expected] of cases) {
      const spec = parser.spec(language);
      const pattern = await parser.compile(spec, source);
      const tree = await parser.parse(spec, code);
      try {
        expect(
          findMatches(pattern, tree, code).matches.map((m) => m.text),
          `${language} ${source}`,
        ).toEqual([expected]);
      } finally {
        tree.delete();
      }
    }
    // Rejected before the retry existed, and still: no property named `get` that matches nothing.
    await expect(parser.compile(parser.spec("csharp"), "get { $$$B }")).rejects.toMatchObject({
      code: "PATTERN_INVALID",
    });
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

describe("patterns too deep or too wide for the matcher", () => {
  const typescript = parser.spec("typescript");

  it("are PATTERN_INVALID, saying how deep, not a raw stack overflow", async () => {
    const cases = [
      ["[".repeat(50_000) + "]".repeat(50_000), 50_003],
      [`foo(${Array.from({ length: 100_000 }, () => "1").join("+")})`, 100_004],
    ] as const;
    for (const [source, levels] of cases) {
      const error = await parser.compile(typescript, source).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "PATTERN_INVALID" });
      expect((error as Error).message).toContain(`pattern too deeply nested (${levels} levels; at most 300)`);
    }
    const wide = `foo(${Array.from({ length: 5000 }, () => "1").join(", ")})`;
    const error = await parser.compile(typescript, wide).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PATTERN_INVALID" });
    expect((error as Error).message).toContain(
      "pattern too long: 10001 nodes side by side in one list (at most 500)",
    );
  });

  it("up to the bounds, compile and match", async () => {
    // 290 arrays, with the program, its statement and the innermost `[` token: 293 levels.
    const deep = "[".repeat(290) + "]".repeat(290);
    const wide = `foo(${Array.from({ length: 249 }, (_, index) => String(index)).join(", ")})`;
    for (const source of [deep, wide]) {
      const pattern = await parser.compile(typescript, source);
      const tree = await parser.parse(typescript, `${source};\n`);
      try {
        expect(findMatches(pattern, tree, `${source};\n`).matches).toHaveLength(1);
      } finally {
        tree.delete();
      }
    }
  });
});

describe("compiling frees every tree it parses", () => {
  // Each reading tried (bare, each wrapper, the retries) is a parse: a tree in WASM memory.
  const compiled = [
    ["typescript", "foo($A, $$$B)"],
    ["dart", "if ($X != null) $X.dispose()"],
    ["csharp", "if ($C) { $$$B }"],
    ["csharp", "void $M() { $$$B }"],
    ["php", "<?php echo $A; ?>"],
    // Read whole as an ERROR: the description of what did not parse is kept.
    ["typescript", "import { $$$N } from $M"],
  ] as const;
  const refused = [
    ["python", "class $C"],
    ["python", "foo($A,, )"],
    ["typescript", "$$$A"],
    ["typescript", "f($A, $$$A)"],
    ["typescript", "[".repeat(400) + "]".repeat(400)],
  ] as const;

  it("on success and on PATTERN_INVALID, and the compiled pattern still matches", async () => {
    // Grammars load before tracking: only what a compilation parses is counted.
    for (const [language] of [...compiled, ...refused]) await parser.parser(parser.spec(language));
    const trees = trackTrees();
    const patterns = [];
    try {
      for (const [language, source] of compiled)
        patterns.push(await parser.compile(parser.spec(language), source));
      for (const [language, source] of refused)
        await expect(parser.compile(parser.spec(language), source)).rejects.toMatchObject({
          code: "PATTERN_INVALID",
        });
      expect(trees.parsed().length).toBeGreaterThan(compiled.length + refused.length);
      expect(trees.live()).toHaveLength(0);
    } finally {
      trees.stop();
    }
    const [first] = patterns;
    const source = "foo(1, 2, 3);\n";
    const tree = await parser.parse(parser.spec("typescript"), source);
    try {
      expect(first && findMatches(first, tree, source).matches).toHaveLength(1);
    } finally {
      tree.delete();
    }
  });
});
