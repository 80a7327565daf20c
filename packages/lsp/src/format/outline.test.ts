import { SymbolKind, type DocumentSymbol } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { boundOutline, outlineRows } from "./outline.js";

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });
const symbol = (
  name: string,
  kind: SymbolKind,
  line: number,
  children?: DocumentSymbol[],
): DocumentSymbol => ({
  name,
  kind,
  range: at(line),
  selectionRange: at(line),
  ...(children ? { children } : {}),
});
const line = (s: DocumentSymbol, depth: number) => `${"  ".repeat(depth)}${s.name}`;

describe("outline", () => {
  // A class with two members, then functions whose bodies hold locals (an object literal's keys).
  const file = [
    symbol("Box", SymbolKind.Class, 0, [
      symbol("size", SymbolKind.Property, 1),
      symbol("grow", SymbolKind.Method, 2, [symbol("next", SymbolKind.Variable, 3)]),
    ]),
    ...Array.from({ length: 4 }, (_, i) =>
      symbol(`f${i}`, SymbolKind.Function, 10 + i * 10, [
        symbol(`options${i}`, SymbolKind.Constant, 11 + i * 10, [
          symbol("timeout", SymbolKind.Property, 12 + i * 10),
        ]),
      ]),
    ),
  ];
  const rows = outlineRows(file, line);

  it("lists the whole tree in the file's order when it fits, children under their parents", () => {
    expect(rows.map((row) => row.text)).toEqual([
      "Box",
      "  size",
      "  grow",
      "    next",
      ...[0, 1, 2, 3].flatMap((i) => [`f${i}`, `  options${i}`, "    timeout"]),
    ]);
    expect(rows.filter((row) => row.inner).map((row) => row.text.trim())).toEqual([
      "next",
      ...[0, 1, 2, 3].flatMap((i) => [`options${i}`, "timeout"]),
    ]);
    expect(boundOutline(rows, rows.length)).toEqual({ items: rows.map((row) => row.text), note: "" });
  });

  it("over the limit keeps every top-level declaration and members before any function's locals", () => {
    const { items, note } = boundOutline(rows, 8);
    expect(items).toEqual(["Box", "  size", "  grow", "f0", "  options0", "f1", "f2", "f3"]);
    expect(note).toBe(
      "… 8 more symbols (nested ones: every top-level declaration is listed; all 8 are locals of a function or initialiser)",
    );
  });

  it("says which of those left out are members, and cuts top-level declarations last, in order", () => {
    expect(boundOutline(rows, 6)).toEqual({
      items: ["Box", "  size", "f0", "f1", "f2", "f3"],
      note: "… 10 more symbols (nested ones: every top-level declaration is listed; 9 of them are locals of a function or initialiser)",
    });
    expect(boundOutline(rows, 3)).toEqual({ items: ["Box", "f0", "f1"], note: "… 13 more symbols" });
  });
});
