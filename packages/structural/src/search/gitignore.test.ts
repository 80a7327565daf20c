import { describe, expect, it } from "vitest";
import { ignoringRule, isIgnored, parseGitignore } from "./gitignore.js";

describe("gitignore", () => {
  const layers = [
    { base: "", rules: parseGitignore("build/\n*.gen.py\n!keep.gen.py\n/root.py\ndocs/**/tmp\n") },
  ];
  it("applies directory, glob, negation and anchored rules", () => {
    expect(isIgnored(layers, "build", true)).toBe(true);
    expect(isIgnored(layers, "build", false)).toBe(false);
    expect(isIgnored(layers, "a/b/x.gen.py", false)).toBe(true);
    expect(isIgnored(layers, "a/keep.gen.py", false)).toBe(false);
    expect(isIgnored(layers, "root.py", false)).toBe(true);
    expect(isIgnored(layers, "sub/root.py", false)).toBe(false);
    expect(isIgnored(layers, "docs/a/b/tmp", true)).toBe(true);
  });

  it("names the rule that ignores a path: its line and text, the last one matching", () => {
    const rules = parseGitignore("# generated\n*.py\n\n!keep.py\ngen/  \n");
    const layered = [{ base: "", rules, source: "/w/.ignore" }];
    expect(ignoringRule(layered, "a/x.py", false)).toMatchObject({
      source: "/w/.ignore",
      rule: { line: 2, text: "*.py" },
    });
    expect(ignoringRule(layered, "gen", true)?.rule).toMatchObject({ line: 5, text: "gen/" });
    expect(ignoringRule(layered, "keep.py", false)).toBeUndefined();
  });
});
