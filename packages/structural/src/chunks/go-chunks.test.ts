import { describe, expect, it } from "vitest";
import { goChunkStarts } from "./go-chunks.js";

function pieces(text: string): string[] | undefined {
  return goChunkStarts(text)?.indices.map((index) => text.slice(index, text.indexOf("\n", index)));
}

describe("goChunkStarts", () => {
  it("starts a piece at each top-level declaration, comments going with the one below", () => {
    const text = [
      "package main",
      "",
      "import (",
      '\t"fmt"',
      ")",
      "",
      "// F says hi.",
      "func F() {",
      '\tfmt.Println("}")',
      "}",
      "var x = 1",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual(["package main", "import (", "// F says hi.", "func F() {", "var x = 1"]);
    expect(goChunkStarts(text)?.rows).toEqual([0, 2, 6, 7, 10]);
  });

  it("follows Go's semicolon rule: a line after an operator or keyword goes on", () => {
    const text = [
      "var f =",
      "func() int { return 1 }",
      "var y = 1 +",
      "2",
      "type T =",
      "int",
      "func g() {}",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual(["var f =", "var y = 1 +", "type T =", "func g() {}"]);
  });

  it("does not split inside raw strings, block comments, runes or function bodies", () => {
    const text = [
      "var s = `",
      "func notReal() {}",
      "`",
      "/*",
      "func alsoNot() {}",
      "*/",
      "var r = '}'",
      "func h() {",
      "x := 1",
      "var inside = 2",
      "}",
      "",
    ].join("\n");
    expect(pieces(text)).toEqual(["var s = `", "/*", "var r = '}'", "func h() {"]);
  });

  it("gives up on source that does not lex cleanly", () => {
    expect(goChunkStarts("func f() {\n")).toBeUndefined();
    expect(goChunkStarts("var s = `never closed\n")).toBeUndefined();
    expect(goChunkStarts('var s = "broken\nfunc f() {}\n')).toBeUndefined();
    expect(goChunkStarts("/* open\n")).toBeUndefined();
  });
});
