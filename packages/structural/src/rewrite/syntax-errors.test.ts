import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { describeSite, errorSites, introducedSites } from "./syntax-errors.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

async function sites(language: string, code: string) {
  const tree = await parser.parse(parser.spec(language), code);
  try {
    return errorSites(tree, language);
  } finally {
    tree.delete();
  }
}

describe("errorSites", () => {
  it("finds none in valid code, Go's zero-width terminator (typed ERROR) included", async () => {
    expect(await sites("go", "package p\n\nfunc f() { x := 1; _ = x }\n")).toEqual([]);
    expect(await sites("python", "if x:\n    pass\n")).toEqual([]);
  });

  it("finds a MISSING token, an ERROR, and Python's empty block", async () => {
    expect(await sites("typescript", "f(1;\n")).toEqual([{ start: 3, end: 3, missing: ")" }]);
    expect((await sites("bash", "for i in 1; do ; done\n"))[0]?.missing).toBeUndefined();
    expect(await sites("python", "if x: \ny = 2\n")).toEqual([{ start: 5, end: 5, empty: "block" }]);
  });
});

describe("introducedSites", () => {
  const spans = [{ start: 10, end: 20, length: 2 }];
  it("keeps an error the original did not have, moved or not", () => {
    expect(introducedSites([], spans, [{ start: 11, end: 11 }])).toEqual([{ start: 11, end: 11 }]);
    // The original's error at 30 is at 22 once 10 characters became 2.
    expect(introducedSites([{ start: 30, end: 31 }], spans, [{ start: 22, end: 23 }])).toEqual([]);
    expect(introducedSites([{ start: 30, end: 31 }], spans, [{ start: 30, end: 31 }])).toEqual([
      { start: 30, end: 31 },
    ]);
  });

  it("blames a new error that error recovery read together with an old one when it reaches the rewrite's text", () => {
    // The rewrite wrote 10..12; the new ERROR runs from there into the original's (moved: 22..24).
    // It was excused for touching it.
    expect(introducedSites([{ start: 30, end: 32 }], spans, [{ start: 10, end: 24 }])).toEqual([
      { start: 10, end: 24 },
    ]);
    // The original's error, read the same (or narrower) after the rewrite, is still excused.
    expect(introducedSites([{ start: 30, end: 32 }], spans, [{ start: 22, end: 24 }])).toEqual([]);
    expect(introducedSites([{ start: 5, end: 40 }], spans, [{ start: 8, end: 30 }])).toEqual([]);
    // A zero-width one at the end of the rewrite's text that the original had there too.
    expect(introducedSites([{ start: 20, end: 20 }], spans, [{ start: 12, end: 12 }])).toEqual([]);
  });

  it("counts an original error inside the replaced code as the whole replacement's", () => {
    expect(introducedSites([{ start: 15, end: 16 }], spans, [{ start: 11, end: 12 }])).toEqual([]);
    expect(introducedSites([{ start: 5, end: 6 }], spans, [{ start: 6, end: 6 }])).toEqual([]);
  });
});

describe("describeSite", () => {
  it("gives the 1-based line and column and the line's text; an empty body after the code before it", () => {
    expect(describeSite("a\r\nf(1;\r\n", { start: 6, end: 6, missing: ")" })).toEqual({
      line: 2,
      column: 4,
      lineText: "f(1;",
      missing: ")",
    });
    expect(describeSite("if x: \ny = 2\n", { start: 7, end: 7, empty: "block" })).toEqual({
      line: 1,
      column: 6,
      lineText: "if x: ",
      empty: "block",
    });
  });
});
