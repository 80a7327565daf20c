import { describe, expect, it } from "vitest";
import { parseJsonc } from "./jsonc.js";

describe("parseJsonc", () => {
  it("drops comments and trailing commas outside strings, as a tsconfig is read", () => {
    expect(
      parseJsonc(
        [
          "{",
          '  // "references": [{ "path": "../b" }],',
          '  /* "files": [], */',
          '  "compilerOptions": { "strict": true, /* inline */ },',
          '  "include": ["src", "test",],',
          "}",
        ].join("\n"),
      ),
    ).toEqual({ compilerOptions: { strict: true }, include: ["src", "test"] });
  });

  // The comments' and commas' look-alikes inside strings are the strings' own.
  it("keeps strings as they are", () => {
    expect(parseJsonc('{ "a": "http://x/*y*/", "b": "one,}", "c": "q\\"//", "d": [",]"], }')).toEqual({
      a: "http://x/*y*/",
      b: "one,}",
      c: 'q"//',
      d: [",]"],
    });
  });

  it("throws on what is not JSON once comments and trailing commas are gone", () => {
    expect(() => parseJsonc("{ references: [] }")).toThrow(SyntaxError);
    expect(() => parseJsonc('{ "a": 1 "b": 2 }')).toThrow(SyntaxError);
  });

  // TypeScript drops a byte order mark (an editor's UTF-8 with BOM) and reads a tsconfig of
  // nothing but blanks and comments as {}: both threw, and workspace symbols took the
  // uncancellable pass-through for them, where the pattern before found no "references".
  it("reads a byte order mark and an empty text as TypeScript does", () => {
    expect(parseJsonc('\uFEFF{ "include": ["src"] }')).toEqual({ include: ["src"] });
    expect(parseJsonc("")).toEqual({});
    expect(parseJsonc("\uFEFF  // nothing yet\n")).toEqual({});
  });
});
