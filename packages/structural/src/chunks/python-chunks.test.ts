import { describe, expect, it } from "vitest";
import { pythonChunkStarts, pythonStatementLines } from "./python-chunks.js";

/** The first line of each top-level piece, for readable expectations. */
function pieces(text: string): string[] | undefined {
  const starts = pythonChunkStarts(text);
  return starts?.indices.map((index) => text.slice(index, text.indexOf("\n", index)));
}

describe("pythonChunkStarts", () => {
  it("starts a piece at each top-level statement, with its row", () => {
    const text = "import os\n\ndef f():\n    return 1\n\nclass A:\n    pass\nx = 1\n";
    expect(pieces(text)).toEqual(["import os", "def f():", "class A:", "x = 1"]);
    expect(pythonChunkStarts(text)?.rows).toEqual([0, 2, 5, 7]);
  });

  it("keeps continuing clauses, decorators and column-0 comments with their statement", () => {
    const text = [
      "try:",
      "    import x",
      "except ImportError:",
      "    x = None",
      "else:",
      "    pass",
      "finally:",
      "    pass",
      "@decorator",
      "# a comment between",
      "@other(",
      "  1)",
      "def f():",
      "    a = 1",
      "# a comment at column 0 inside the body",
      "    return a",
      "if a:",
      "    pass",
      "elif b:",
      "    pass",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual(["try:", "@decorator", "if a:"]);
  });

  it("does not split inside brackets, backslash continuations or any string form", () => {
    const text = [
      "x = [",
      "def not_a_statement(): pass",
      "]",
      "y = 1 + \\",
      "def also_not(): pass",
      'z = """',
      "def inside_a_docstring():",
      "    x.append(1)",
      '"""',
      "w = rb'''",
      "class Inside: pass",
      "'''",
      "v = 'it''s' \"q\\\"uote\" r'\\''",
      "def real(): pass",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual([
      "x = [",
      "y = 1 + \\",
      'z = """',
      "w = rb'''",
      "v = 'it''s' \"q\\\"uote\" r'\\''",
      "def real(): pass",
    ]);
  });

  it("follows f-string replacement fields: nested quotes, format specs, nested fields", () => {
    const text = [
      'a = f"{x["key"]}"',
      "b = f'{value:'^10}'",
      'c = f"{n:{width}.{precision}}" f"{{literal}}"',
      'd = F"""',
      '{ {"k": """',
      "def in_a_nested_string(): pass",
      '"""} }',
      '"""',
      "def after(): pass",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual([
      'a = f"{x["key"]}"',
      "b = f'{value:'^10}'",
      'c = f"{n:{width}.{precision}}" f"{{literal}}"',
      'd = F"""',
      "def after(): pass",
    ]);
  });

  it("takes a string prefix only when it is glued to the quote and not part of a name", () => {
    // `if"…"` is the keyword `if` before a plain string; `rf"{` opens a field.
    const text = 'if"{"in s: pass\nx = rf"{a}"\ndef g(): pass\n';
    expect(pieces(text)).toEqual(['if"{"in s: pass', 'x = rf"{a}"', "def g(): pass"]);
  });

  it("counts rows through CRLF line ends and multi-line strings", () => {
    const text = 'a = """\r\none\r\n"""\r\ndef f():\r\n    pass\r\nb = 2\r\n';
    expect(pythonChunkStarts(text)?.rows).toEqual([0, 3, 5]);
  });

  it("gives up on source that does not lex cleanly", () => {
    expect(pythonChunkStarts("x = (1,\ny = 2\n")).toBeUndefined();
    expect(pythonChunkStarts("x = 1)\n")).toBeUndefined();
    expect(pythonChunkStarts("s = 'unterminated\ndef f(): pass\n")).toBeUndefined();
    expect(pythonChunkStarts('s = """never closed\ndef f(): pass\n')).toBeUndefined();
  });
});

describe("pythonStatementLines", () => {
  it("records each statement line's indentation and what joins the one before", () => {
    const text = "class A:\n    @property\n    def x(self):\n        return 1\n\tdef tabbed(self): pass\n";
    const lines = pythonStatementLines(text);
    expect(lines?.indents).toEqual([0, 4, 4, 8, -1]);
    expect(lines?.joined).toEqual([false, false, true, false, false]);
    expect(lines?.lastRow).toBe(5);
  });
});
