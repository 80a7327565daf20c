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

  it("awaits the asynchronous helpers in JavaScript", () => {
    expect(rewriteCell("!ls", "javascript")).toBe('await __tools__.sh("ls")');
    expect(rewriteCell("%%timeit -n 2\nf()", "javascript")).toBe(
      "\nawait __tools__.timeit(async () => {\nf()\n}, 2, 0)",
    );
  });

  it("leaves plain code and other magics alone", () => {
    const code = "x = 1  # not !this\n%matplotlib inline\nprint(x != 2)";
    expect(rewriteCell(code, "python")).toBe(code);
  });
});
