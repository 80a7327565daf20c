import { describe, expect, it } from "vitest";
import { isIgnored, parseGitignore } from "./gitignore.js";

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
});
