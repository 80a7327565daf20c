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
});
