import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { utf16Column, withUtf16Columns } from "./byte-columns.js";

describe("utf16Column", () => {
  it("counts what comes before in UTF-16 units, as LSP servers do", () => {
    // x := "😀é" + 1 — go vet puts the `+` at byte column 18, a server at UTF-16 column 15.
    const line = '\tx := "😀é" + 1';
    expect(utf16Column(line, Buffer.from(line.slice(0, line.indexOf("+"))).length + 1)).toBe(
      line.indexOf("+") + 1,
    );
    expect(utf16Column("abc", 2)).toBe(2);
    expect(utf16Column("é", 5)).toBe(4);
  });
});

describe("withUtf16Columns", () => {
  const dir = mkdtempSync(join(tmpdir(), "byte-columns-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const finding = (file: string, line: number, column: number) => ({
    file: join(dir, file),
    line,
    column,
    severity: "error",
    code: "",
    message: "m",
  });
  /** The 1-based byte column of `name` in `line` (UTF-8). */
  const byteColumn = (line: string, name: string) =>
    Buffer.byteLength(line.slice(0, line.indexOf(name)), "utf8") + 1;

  it("converts the findings of files it can read, and keeps the others", () => {
    writeFileSync(join(dir, "u.go"), 'package main\n\nvar s = "😀é" + 1\n');
    const converted = withUtf16Columns([
      finding("u.go", 3, 18),
      finding("u.go", 1, 3),
      finding("gone.go", 1, 9),
    ]);
    expect(converted.map((f) => f.column)).toEqual([15, 3, 9]);
  });

  it("reads a byte column in the checker's own line, after a lone \\r, keeping its line numbers", () => {
    // The compiler's lines 2 and 3 are the user's line 2 (the server's too: clangd ends a line at
    // a lone \r as clang does); its line 4 is the user's 3.
    const user = [
      "int a;",
      '  char *s = "é😀";\r  /* ü */ int b = first;',
      '  char *t = "漢"; int c = second;',
    ];
    writeFileSync(join(dir, "cr.c"), `${user.join("\n")}\n`);
    const after = "  /* ü */ int b = first;";
    const converted = withUtf16Columns(
      [finding("cr.c", 3, byteColumn(after, "first")), finding("cr.c", 4, byteColumn(user[2]!, "second"))],
      { lineBreaks: ["\r"], dropsByteOrderMark: false },
    );
    expect(converted.map((f) => [f.line, f.column])).toEqual([
      [3, after.indexOf("first") + 1],
      [4, user[2]!.indexOf("second") + 1],
    ]);
  });

  it("adds back a byte order mark the checker dropped as line 1's first character, and counts one it kept", () => {
    const line = '\uFEFFchar *s = "é"; int a = first;';
    writeFileSync(join(dir, "bom.c"), `${line}\n`);
    const column = (dropsByteOrderMark: boolean) =>
      withUtf16Columns(
        [finding("bom.c", 1, byteColumn(dropsByteOrderMark ? line.slice(1) : line, "first"))],
        { lineBreaks: ["\r"], dropsByteOrderMark },
      )[0]!.column;
    // The server (and the user) see the mark as line 1's first character.
    expect(column(true)).toBe(line.indexOf("first") + 1);
    expect(column(false)).toBe(line.indexOf("first") + 1);
  });
});
