import { describe, expect, it } from "vitest";
import { noNameAnswer, noNameAt } from "./no-name.js";

describe("noNameAt", () => {
  it("takes a reserved word of the file's language and dialect as a keyword, a name of another language's as a name", () => {
    const line = "int *p = new int;";
    expect(noNameAt(line, line, 9, "c", "cpp")).toEqual({
      kind: "keyword",
      word: "new",
      language: "c++",
      instead: "p",
    });
    // `new` is a name in C.
    expect(noNameAt("int new = 1;", "int new = 1;", 4, "c", "c")).toBeUndefined();
    expect(noNameAt("new = 1", "new = 1", 0, "python", undefined)).toBeUndefined();
  });

  it("takes a reserved word after a '.' as a member's name", () => {
    const line = "store.delete(key);";
    expect(noNameAt(line, line, 7, "typescript", "typescript")).toBeUndefined();
  });

  it("suggests the name a keyword introduces, and the left side of an operator, from the line's code only", () => {
    const line = "export const total = add(1, 2); // export total";
    const code = "export const total = add(1, 2);                 ";
    expect(noNameAt(line, code, 2, "typescript", "typescript")?.instead).toBe("total");
    expect(noNameAt("x = a + b", "x = a + b", 6, "go", undefined)).toEqual({
      kind: "operator",
      word: "+",
      language: "go",
      instead: "a",
    });
    expect(noNameAt("else {", "else {", 1, "go", undefined)).toEqual({
      kind: "keyword",
      word: "else",
      language: "go",
    });
    expect(noNameAnswer({ kind: "keyword", word: "else", language: "go" }, "main.go:3:1")).toBe(
      "'else' at main.go:3:1 is a keyword of go, not a name: give the name it introduces or acts on as symbol",
    );
  });
});
