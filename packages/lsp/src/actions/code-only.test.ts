import { describe, expect, it } from "vitest";
import { codeOnly, codeOnlyLines, sharedCodeOnlyLines } from "./code-only.js";

describe("codeOnly", () => {
  it("blanks comments and strings, keeping columns", () => {
    const line = '  count += 1; // mentions count and "count"';
    const code = codeOnly(line, "typescript");
    expect(code).toHaveLength(line.length);
    expect(code.trimEnd()).toBe("  count += 1;");
  });

  it("blanks quoted text with escapes and block comments within the line", () => {
    expect(codeOnly('f("a \\" count", count) /* count */ + g', "typescript")).toBe(
      `f(${" ".repeat(12)}, count) ${" ".repeat(11)} + g`,
    );
  });

  it("takes # as a comment in Python only", () => {
    expect(codeOnly("x = count  # count", "python").trimEnd()).toBe("x = count");
    expect(codeOnly('#include "count.h"', "c")).toBe(`#include ${" ".repeat(9)}`);
  });

  it("keeps the code of template literal interpolations, nested ones too", () => {
    const line = "return `${total} items ${f(`${count}`)} and ${{ a: 1 }.a}`; // total";
    const code = codeOnly(line, "typescript");
    expect(code).toHaveLength(line.length);
    expect(code.indexOf("total")).toBe(line.indexOf("total"));
    expect(code).toContain("f(   count  )");
    expect(code).toContain("{ a: 1 }.a");
    expect(code).not.toContain("items");
    expect(code.trimEnd().endsWith(";")).toBe(true);
  });

  it("keeps Python f-string interpolations as code, but not {{ or a plain string's braces", () => {
    expect(codeOnly('s = f"{total} items {{total}}"', "python")).toBe(`s = f  total${" ".repeat(18)}`);
    expect(codeOnly('s = rf"{total}" + "{total}"', "python")).toBe(`s = rf  total   + ${" ".repeat(9)}`);
    expect(codeOnly("s = '''{total}'''", "python")).toBe(`s = ${" ".repeat(13)}`);
    expect(codeOnly('s = f"{d["k"]:>{width}}"', "python")).toBe("s = f  d[   ]:>{width}  ");
  });

  it("keeps Dart's $name and ${…} interpolations as code, not a raw string's", () => {
    expect(codeOnly("print('$total items ${count + 1}');", "dart")).toBe(
      "print(  total         count + 1  );",
    );
    expect(codeOnly("print(r'$total');", "dart")).toBe(`print(r${" ".repeat(8)});`);
  });

  it("reads a Rust ' as a char literal only when it is one: a lifetime is code", () => {
    expect(codeOnly("impl<'a> Parser<'a> { fn f(&'a self) {} }", "rust")).toBe(
      "impl<'a> Parser<'a> { fn f(&'a self) {} }",
    );
    expect(codeOnly("let c = 'x'; let n = '\\n'; let u = '\\u{1F600}'; total", "rust")).toBe(
      `let c = ${" ".repeat(3)}; let n = ${" ".repeat(4)}; let u = ${" ".repeat(11)}; total`,
    );
  });

  it("reads a C++ ' between digits as a digit separator, a char literal elsewhere", () => {
    expect(codeOnly("int total = 1'000'000 + 0x1'f; char c = 'a';", "c")).toBe(
      "int total = 1'000'000 + 0x1'f; char c =    ;",
    );
    expect(codeOnly("auto s = u8'a' + total;", "c")).toBe(`auto s = u8${" ".repeat(3)} + total;`);
  });

  it("takes a literal not closed on the line as code (it may continue, or be no literal)", () => {
    expect(codeOnly("const s = `head ${total}", "typescript")).toBe("const s = `head ${total}");
    expect(codeOnly("x = 'abc  // total", "c")).toBe("x = 'abc  // total");
    expect(codeOnly("doc = total /* note", "typescript")).toBe(`doc = total ${" ".repeat(7)}`);
  });

  it("keeps Go raw strings without escapes", () => {
    expect(codeOnly("s := `a\\` + total + `b`", "go")).toBe(
      `s := ${" ".repeat(4)} + total + ${" ".repeat(3)}`,
    );
  });

  it("takes a whole line as code where quotes or comment marks may mean something else", () => {
    const whole: [string, string][] = [
      ["return <p>Don't forget {foo} won't</p>;", "typescript"],
      ["<span>It's {foo.name}'s turn</span>", "typescript"],
      ["${a}`; const y = foo(`x`);", "typescript"],
      // A `/` whose meaning the code before it on the line does not give: a regular expression
      // or a division (after `}`, `++`, at the line's start, after what may close a comment).
      ["} /'/.test(s) && foo(\"'\");", "typescript"],
      ['  / foo + "\'";', "typescript"],
      ['x = a++ / foo("\'");', "typescript"],
      ['  */ foo("\'");', "typescript"],
      // No raw-string delimiter after `R"`.
      ['auto s = R"x"; foo(); auto t = "x";', "c"],
    ];
    for (const [line, language] of whole) expect(codeOnly(line, language), line).toBe(line);
    // Comment marks alone are still read.
    expect(codeOnly("a = b; /* foo */ c(); // foo", "typescript")).toBe(
      `a = b; ${" ".repeat(9)} c(); ${" ".repeat(6)}`,
    );
  });

  it("reads TypeScript regular expressions, slashes in strings and divisions by the code before them", () => {
    const blank = (n: number) => " ".repeat(n);
    const cases: [string, string][] = [
      ["return s.replace(/'/g, foo + \"'\");", `return s.replace(${blank(4)}, foo +${blank(4)});`],
      ["if (/'/.test(s) && foo === 'x') {", `if (${blank(3)}.test(s) && foo === ${blank(3)}) {`],
      ["const re = /\\/\\//; const y = foo(re);", `const re = ${blank(6)}; const y = foo(re);`],
      ["p.split(/[/*]/).map(foo);", `p.split(${blank(6)}).map(foo);`],
      ['const u = "a/b" + foo; // foo', `const u = ${blank(5)} + foo;${blank(7)}`],
      ['import { foo } from "./foo.js";', `import { foo } from ${blank(10)};`],
      ["const h = (a + b) / foo / 2;", "const h = (a + b) / foo / 2;"],
      ["if (ok) /'/.test(foo) && x('/');", `if (ok) ${blank(3)}.test(foo) && x(${blank(3)});`],
      ['return /"/.test(foo) ? a / b : c;', `return ${blank(3)}.test(foo) ? a / b : c;`],
      ['const n = x! / 2; const q = "/*"; foo();', `const n = x! / 2; const q = ${blank(4)}; foo();`],
      ["const t = a.in / b; // foo", `const t = a.in / b;${blank(7)}`],
      ["const p = `${root}/${foo}`;", "const p =    root    foo  ;"],
    ];
    for (const [line, code] of cases) expect(codeOnly(line, "typescript"), line).toBe(code);
  });

  it("reads Rust and C++ raw strings with their delimiters", () => {
    expect(codeOnly('let p = r"C:\\"; foo(); let t = "x";', "rust")).toBe(
      `let p = r${" ".repeat(5)}; foo(); let t =${" ".repeat(4)};`,
    );
    expect(codeOnly('let s = r#"a " b"#; foo(); let t = br"x";', "rust")).toBe(
      `let s = r#${" ".repeat(8)}; foo(); let t = br${" ".repeat(3)};`,
    );
    expect(codeOnly('auto s = R"(a"b)"; foo(); auto t = u8R"d(x)")d";', "c")).toBe(
      `auto s = R${" ".repeat(7)}; foo(); auto t = u8R${" ".repeat(9)};`,
    );
  });
});

describe("codeOnlyLines", () => {
  const read = (text: string, language: string): string[] => {
    const lines = text.split("\n");
    const code = codeOnlyLines(lines, language);
    return lines.map((_, index) => code(index).trimEnd());
  };

  it("knows a Python docstring's lines are no code", () => {
    const file = [
      "def compute() -> int:",
      '    """',
      "    compute calls helper",
      '    """',
      "    return helper()",
      "x = '''a",
      "helper'''; helper()",
    ].join("\n");
    expect(read(file, "python")).toEqual([
      "def compute() -> int:",
      "",
      "",
      "",
      "    return helper()",
      "x =",
      "         ; helper()",
    ]);
  });

  it("knows block comments, template literals and Go raw strings over lines", () => {
    const ts = [
      "/**",
      " * Don't call helper",
      " */ helper();",
      "const s = `a ${helper()}",
      "helper`; helper;",
    ];
    expect(read(ts.join("\n"), "typescript")).toEqual([
      "",
      "",
      "    helper();",
      "const s =      helper()",
      "       ; helper;",
    ]);
    const go = ["s := `a", "helper", "` + helper()", "/* helper", "helper */ x := helper"];
    expect(read(go.join("\n"), "go")).toEqual(["s :=", "", "  + helper()", "", "          x := helper"]);
  });

  it("reads the lines after one it cannot read for sure each alone", () => {
    // After `}`, a `/` may open a regular expression (holding a backtick) or divide.
    const ts = ["if (ready) {", "} /`/.test(s) && foo();", "helper();", "const t = `x`; // helper"];
    expect(read(ts.join("\n"), "typescript")).toEqual([
      "if (ready) {",
      "} /`/.test(s) && foo();",
      "helper();",
      "const t =    ;",
    ]);
    // A line not read for sure that opens nothing running over lines: the next are still known.
    const opensNothing = ["x = a++ / 2;", "/* helper", "helper */ helper();"];
    expect(read(opensNothing.join("\n"), "typescript")).toEqual([
      "x = a++ / 2;",
      "",
      `${" ".repeat(10)}helper();`,
    ]);
  });

  it("knows a block comment over lines after a TypeScript module's imports, regular expressions and slashes", () => {
    const ts = [
      'import { readFile } from "node:fs/promises";',
      'import { helper } from "./helper.js";',
      "const pattern = /^\\/+|[/*]+$/g;",
      'const url = "https://example.com/" + name; // helper',
      "const half = total / 2, ratio = (a + b) / helper.count;",
      "const path = `${root}/${helper.name}`;",
      "/*",
      " * helper is called below; it's no comment's business",
      " */",
      "export const run = () => helper(pattern, url, half, path);",
    ];
    expect(read(ts.join("\n"), "typescript")).toEqual([
      `import { readFile } from ${" ".repeat(18)};`,
      `import { helper } from ${" ".repeat(13)};`,
      `const pattern = ${" ".repeat(14)};`,
      `const url = ${" ".repeat(22)} + name;`,
      "const half = total / 2, ratio = (a + b) / helper.count;",
      "const path =    root    helper.name  ;",
      "",
      "",
      "",
      "export const run = () => helper(pattern, url, half, path);",
    ]);
  });

  it("follows a template literal's interpolation whose expression runs over lines", () => {
    const ts = [
      "const message = `${someOf(",
      "  names, // helper",
      '  "helper",',
      ")} and ${count} more`;",
      "/* helper",
      "   helper */ helper();",
    ];
    expect(read(ts.join("\n"), "typescript")).toEqual([
      "const message =    someOf(",
      "  names,",
      `  ${" ".repeat(8)},`,
      `)${" ".repeat(8)}count${" ".repeat(7)};`,
      "",
      `${" ".repeat(13)}helper();`,
    ]);
    // An interpolation holding a literal left open over lines: the lines after it are read alone.
    const nested = ["const s = `${f(`a", "b`)}`; // helper", "helper();"];
    expect(read(nested.join("\n"), "typescript")).toEqual(["const s = `${f(`a", "b    ;", "helper();"]);
  });

  it("knows a block comment over lines after JSX tags and an apostrophe in a comment", () => {
    const tsx = [
      "// Don't render helper here",
      "export const View = () => (",
      '  <div className="a/b">',
      "    <Item key={id} />",
      "  </div>",
      ");",
      "/* helper",
      "   helper */ helper();",
    ];
    expect(read(tsx.join("\n"), "typescript")).toEqual([
      "",
      "export const View = () => (",
      `  <div className=${" ".repeat(5)}>`,
      "    <Item key={id} />",
      "  </div>",
      ");",
      "",
      `${" ".repeat(13)}helper();`,
    ]);
  });

  it("knows C++ raw strings and // comments continued by a backslash over lines", () => {
    const c = [
      '#include "lib/helper.h"',
      'const char *usage = R"(usage: tool [options]',
      '  calls helper "twice" /* not a comment',
      ')";',
      "// a note that goes on \\",
      "   helper(); is not called here",
      "/* helper",
      " * helper */ int main(void) { return helper(); }",
    ];
    expect(read(c.join("\n"), "c")).toEqual([
      "#include",
      "const char *usage = R",
      "",
      "  ;",
      "",
      "",
      "",
      `${" ".repeat(13)}int main(void) { return helper(); }`,
    ]);
  });

  it("knows Rust raw strings and nested block comments over lines", () => {
    const rust = [
      "use std::path::Path;",
      'const USAGE: &str = r#"run "helper" with',
      '  a path like /tmp/helper"#;',
      "/* outer /* inner helper */ still helper",
      "   helper */ fn main() { helper(); }",
    ];
    expect(read(rust.join("\n"), "rust")).toEqual([
      "use std::path::Path;",
      "const USAGE: &str = r#",
      `${" ".repeat(rust[2]!.indexOf('"#') + 2)};`,
      "",
      `${" ".repeat(13)}fn main() { helper(); }`,
    ]);
  });

  it("knows a Python string continued by a backslash, and docstrings after imports", () => {
    const python = [
      "import os.path",
      "from .helper import helper",
      'GREETING = "hello \\',
      'helper"',
      "def run():",
      '    """',
      "    Calls helper once.",
      '    """',
      "    return helper()",
    ];
    expect(read(python.join("\n"), "python")).toEqual([
      "import os.path",
      "from .helper import helper",
      "GREETING =",
      "",
      "def run():",
      "",
      "",
      "",
      "    return helper()",
    ]);
  });

  it("reads a line as codeOnly does when nothing runs into it", () => {
    const line = 'f("a \\" count", count) /* count */ + g';
    expect(codeOnlyLines([line], "typescript")(0)).toBe(codeOnly(line, "typescript"));
  });
});

describe("sharedCodeOnlyLines", () => {
  /** Lines that count how many times each is read. */
  const counted = (lines: string[]) => {
    const reads = { count: 0 };
    const proxy = new Proxy(lines, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads.count++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    return { proxy, reads };
  };
  const file = Array.from({ length: 1000 }, (_, index) => `const v${index} = "/*"; // ${index}`);

  it("scans a text's lines once, however many requests ask about them", () => {
    const { proxy, reads } = counted(file);
    const code = sharedCodeOnlyLines(proxy, "typescript");
    expect(code(999)).toBe(codeOnly(file[999]!, "typescript"));
    const first = reads.count;
    expect(first).toBeGreaterThanOrEqual(1000);
    // A later request on the same unchanged text: nothing read again.
    expect(sharedCodeOnlyLines(proxy, "typescript")).toBe(code);
    expect(sharedCodeOnlyLines(proxy, "typescript")(998)).toBe(codeOnly(file[998]!, "typescript"));
    expect(reads.count).toBe(first);
    // Another text (the file changed: a new lines array) is scanned afresh; another language too.
    const changed = counted([...file]);
    expect(sharedCodeOnlyLines(changed.proxy, "typescript")).not.toBe(code);
    expect(sharedCodeOnlyLines(proxy, "python")).not.toBe(code);
  });

  it("reads no line before one is asked", () => {
    const { proxy, reads } = counted(file);
    sharedCodeOnlyLines(proxy, "typescript");
    expect(reads.count).toBe(0);
  });
});
