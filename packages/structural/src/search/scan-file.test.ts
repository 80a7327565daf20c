import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { maxPlanRanges } from "../chunks/parse-plan.js";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { scanBytes } from "./scan-file.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

async function wholeFileMatches(language: string, source: string, text: string) {
  const spec = parser.spec(language);
  const tree = await parser.parse(spec, text);
  try {
    return findMatches(await parser.compile(spec, source), tree, text).matches.map((m) => m.text);
  } finally {
    tree.delete();
  }
}

async function scan(path: string, language: string, source: string, text: string) {
  const spec = parser.spec(language);
  const bytes = Buffer.from(text);
  return scanBytes(parser, spec, await parser.compile(spec, source), path, bytes);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("scanBytes", () => {
  it("parses the whole file when the statements holding the literals do not parse cleanly", async () => {
    const text = "def broken(:\n    x.append(1)\n\nclass A:\n    def f(self):\n        y.append(2)\n";
    const found = await scan("/broken.py", "python", "$A.append($B)", text);
    expect(found.matches.map((m) => m.text)).toEqual(await wholeFileMatches("python", "$A.append($B)", text));
    // The whole file's tree is now cached and used as it is by the next search.
    const spec = parser.spec("python");
    const cached = parser.cachedFileTree("/broken.py", spec, sha256(text));
    expect(cached).toBeDefined();
    cached?.release();
  });

  it("parses the whole file when the plan would hand the parser more than maxPlanRanges ranges", async () => {
    // Every other statement holds the literal: one range each, past the bound.
    const lines = Array.from({ length: maxPlanRanges + 1 }, (_, index) => `foo(${index})\nx = ${index}\n`);
    const text = lines.join("");
    const found = await scan("/many.py", "python", "foo($A)", text);
    expect(found.matches).toHaveLength(maxPlanRanges + 1);
    const cached = parser.cachedFileTree("/many.py", parser.spec("python"), sha256(text));
    expect(cached).toBeDefined();
    cached?.release();
  });

  it("finds matches in class members at their offsets in the file", async () => {
    const text = "import os\n\nclass A:\n    x = 1\n\n    def f(self):\n        self.items.append(3)\n";
    const found = await scan("/members.py", "python", "$A.append($B)", text);
    expect(found.matches).toHaveLength(1);
    const [match] = found.matches;
    expect(match && text.slice(match.start, match.end)).toBe("self.items.append(3)");
    expect(match && [match.line, match.column]).toEqual([6, 8]);
    expect(found.text).toBe(text);
  });
});
