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

  it("converts the findings of files it can read, and keeps the others", () => {
    const dir = mkdtempSync(join(tmpdir(), "byte-columns-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "u.go"), 'package main\n\nvar s = "😀é" + 1\n');
    const finding = (file: string, line: number, column: number) => ({
      file: join(dir, file),
      line,
      column,
      severity: "error",
      code: "",
      message: "m",
    });
    const converted = withUtf16Columns([
      finding("u.go", 3, 18),
      finding("u.go", 1, 3),
      finding("gone.go", 1, 9),
    ]);
    expect(converted.map((f) => f.column)).toEqual([15, 3, 9]);
  });
});
