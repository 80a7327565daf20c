import { describe, expect, it } from "vitest";
import { rewriteCell } from "./rewrite-cell.js";

describe("rewriteCell", () => {
  it("turns %pip and !pip into the kernel's own pip with eviction", () => {
    expect(rewriteCell("%pip install -q ./pkg", "python")).toBe('__tools__.pip("install -q ./pkg")');
    expect(rewriteCell("!pip install x==2", "python")).toBe('__tools__.pip("install x==2")');
  });

  it("keeps indentation for !cmd and %cd inside blocks", () => {
    expect(rewriteCell("for i in range(2):\n    !echo {i}\n%cd /tmp", "python")).toBe(
      'for i in range(2):\n    __tools__.sh("echo {i}")\n__tools__.cd("/tmp")',
    );
    expect(rewriteCell("files = !ls -1", "python")).toBe('files = __tools__.sh("ls -1", True)');
  });

  it("turns %%bash and %%timeit cells into helper calls", () => {
    expect(rewriteCell("%%bash\necho a\necho b", "python")).toBe('__tools__.sh("echo a\\necho b")');
    expect(rewriteCell("%%timeit -n 3 -r 2\nsum(range(9))", "python")).toBe(
      '__tools__.timeit("sum(range(9))", "pass", 3, 2)',
    );
  });

  it("leaves plain code and other magics alone", () => {
    const code = "x = 1  # not !this\n%matplotlib inline\nprint(x != 2)";
    expect(rewriteCell(code, "python")).toBe(code);
  });

  describe("Python: only where a logical line starts", () => {
    const unchanged = (code: string) => expect(rewriteCell(code, "python")).toBe(code);

    it("not on a continuation line inside brackets (black puts != first)", () => {
      unchanged("a, b = 1, 2\nif (\n    a\n    != b\n):\n    print('different')");
      unchanged("total = sum([\n    1,\n    %2,\n])");
      unchanged("call(x,\n!y)");
    });

    it("not inside triple-quoted strings, with or without a prefix", () => {
      unchanged("doc = '''\n!important note\n%cd here\n'''\nprint(doc)");
      unchanged('doc = r"""\\"""\n!still inside\n"""');
      unchanged("q = f'''{x}\n!inside {y!r:>{w}}\n'''");
      unchanged('b = rb"""\n%cd bytes\n"""');
    });

    it("not after a backslash continuation, in code or in a string", () => {
      unchanged("x = 1 + \\\n!2");
      unchanged("flag = a \\\n    != b");
      unchanged("s = 'one \\\n!two'");
    });

    it("again once the string, bracket or comment has ended", () => {
      expect(rewriteCell("s = '''x'''  # it's\n!ls", "python")).toBe(
        "s = '''x'''  # it's\n__tools__.sh(\"ls\")",
      );
      expect(rewriteCell("d = {'#': f\"{a['}']}\"}\n%cd /tmp", "python")).toBe(
        "d = {'#': f\"{a['}']}\"}\n__tools__.cd(\"/tmp\")",
      );
      expect(rewriteCell('p = r"\\"" ; q = ("(")\n!pwd', "python")).toBe(
        'p = r"\\"" ; q = ("(")\n__tools__.sh("pwd")',
      );
    });

    it("reads a !cmd line as shell, not Python, and follows its backslash continuation", () => {
      expect(rewriteCell("!echo it's\n!ls", "python")).toBe('__tools__.sh("echo it\'s")\n__tools__.sh("ls")');
      // The swallowed line stays blank so traceback line numbers match the cell.
      expect(rewriteCell("!echo a \\\n    b\nx = 1", "python")).toBe('__tools__.sh("echo a b")\n\nx = 1');
    });
  });

  describe("JavaScript", () => {
    const unchanged = (code: string) => expect(rewriteCell(code, "javascript")).toBe(code);

    it("never reads a leading ! as a shell command: it is the not operator", () => {
      unchanged("const done = false\n!done");
      unchanged("!done && console.log('not done')");
      unchanged("!ls");
    });

    it("rewrites %cd and %timeit only in a cell that is not valid JavaScript as written", () => {
      expect(rewriteCell("%cd /tmp\nprocess.cwd()", "javascript")).toBe(
        '__tools__.cd("/tmp")\nprocess.cwd()',
      );
      expect(rewriteCell("%timeit -n 2 f()", "javascript")).toBe(
        "await __tools__.timeit(async () => { f() }, 2, 0)",
      );
      // `%cd` on a continuation line is the remainder operator here: x = 10 % cd.
      unchanged("const cd = 3, x = 10\n%cd");
    });

    it("not inside a template literal, a block comment or open brackets", () => {
      expect(
        rewriteCell("const t = `\n%cd a\n${`\n%cd b\n`}`\n/*\n%cd c\n*/\nf(1,\n%cd d)\n%cd e", "javascript"),
      ).toBe('const t = `\n%cd a\n${`\n%cd b\n`}`\n/*\n%cd c\n*/\nf(1,\n%cd d)\n__tools__.cd("e")');
      expect(rewriteCell("const re = /`/\n%cd f", "javascript")).toBe('const re = /`/\n__tools__.cd("f")');
    });

    it("awaits the asynchronous helpers", () => {
      expect(rewriteCell("%%bash\nls", "javascript")).toBe('await __tools__.sh("ls")');
      expect(rewriteCell("%%timeit -n 2\nf()", "javascript")).toBe(
        "\nawait __tools__.timeit(async () => {\nf()\n}, 2, 0)",
      );
    });
  });
});
