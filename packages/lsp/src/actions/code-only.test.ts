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
      ["return s.replace(/'/g, foo + \"'\");", "typescript"],
      ["if (/'/.test(s) && foo === 'x') {", "typescript"],
      ["const re = /\\/\\//; const y = foo(re);", "typescript"],
      ["p.split(/[/*]/).map(foo);", "typescript"],
      ["return <p>Don't forget {foo} won't</p>;", "typescript"],
      ["<span>It's {foo.name}'s turn</span>", "typescript"],
      ["${a}`; const y = foo(`x`);", "typescript"],
      ['let p = r"C:\\"; foo(); let t = "x";', "rust"],
      ['let s = r#"a " b"#; foo(); let t = "x";', "rust"],
      ['auto s = R"(a"b)"; foo(); auto t = "x";', "c"],
    ];
    for (const [line, language] of whole) expect(codeOnly(line, language), line).toBe(line);
    // Comment marks alone are still read.
    expect(codeOnly("a = b; /* foo */ c(); // foo", "typescript")).toBe(
      `a = b; ${" ".repeat(9)} c(); ${" ".repeat(6)}`,
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
    // The regular expression holds a backtick: whether a template literal opens is not known.
    const ts = ["const re = /`/; foo();", "helper();", "const t = `x`; // helper"];
    expect(read(ts.join("\n"), "typescript")).toEqual([
      "const re = /`/; foo();",
      "helper();",
      "const t =    ;",
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
