import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { findMatches } from "../match/find-matches.js";
import { rewriteFile } from "../rewrite/rewrite-file.js";
import { conformanceCases } from "../__fixtures__/conformance-cases.js";

const parser = createStructuralParser();
afterAll(() => parser.dispose());

describe("conformance", () => {
  it("has at least 60 cases over dart, python, rust, c, go and typescript", () => {
    expect(conformanceCases.length).toBeGreaterThanOrEqual(60);
    const languages = new Set(conformanceCases.map((c) => c.language));
    for (const language of ["dart", "python", "rust", "c", "go", "typescript"])
      expect(languages).toContain(language);
  });

  it.each(conformanceCases.map((c) => [c.name, c] as const))("%s", async (_name, testCase) => {
    const spec = parser.spec(testCase.language);
    const pattern = await parser.compile(spec, testCase.pattern);
    const tree = await parser.parse(spec, testCase.code);
    try {
      const { matches } = findMatches(pattern, tree, testCase.code);
      expect(matches.map((m) => m.text)).toEqual(testCase.matches);
      if (testCase.bindings) {
        expect(Object.fromEntries([...matches[0]!.bindings].map(([k, v]) => [k, v.text]))).toEqual(
          testCase.bindings,
        );
      }
      if (testCase.rewrite) {
        expect(
          rewriteFile(testCase.code, matches, testCase.rewrite[0], {
            keepTrailingSemicolon: pattern.impliedSemicolon,
          }).newText,
        ).toBe(testCase.rewrite[1]);
      }
    } finally {
      tree.delete();
    }
  });
});
