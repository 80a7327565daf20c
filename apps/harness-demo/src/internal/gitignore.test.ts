import { describe, expect, it } from "vitest";
import { globFilter, globToRegExp } from "./glob-pattern.js";
import { parseGitignore } from "./gitignore.js";

describe("globToRegExp", () => {
  it("keeps * inside one folder and lets ** cross folders", () => {
    expect(globToRegExp("*.ts").test("a.ts")).toBe(true);
    expect(globToRegExp("*.ts").test("src/a.ts")).toBe(false);
    expect(globToRegExp("src/**/*.ts").test("src/a.ts")).toBe(true);
    expect(globToRegExp("src/**/*.ts").test("src/x/y/a.ts")).toBe(true);
    expect(globToRegExp("*.{ts,js}").test("a.js")).toBe(true);
    expect(globToRegExp("?.[ch]").test("a.h")).toBe(true);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
  });

  it("filters by name without a slash and by path with one", () => {
    expect(globFilter("*.ts")("deep/a.ts")).toBe(true);
    expect(globFilter("lib/*.ts")("src/lib/a.ts")).toBe(false);
  });
});

describe("parseGitignore", () => {
  const ignored = parseGitignore("# comment\nbuild/\n*.log\n!keep.log\n/root-only.txt\ndocs/*.tmp\n");

  it("applies folder-only, negated and anchored rules", () => {
    expect(ignored("build", true)).toBe(true);
    expect(ignored("build", false)).toBe(false);
    expect(ignored("src/build", true)).toBe(true);
    expect(ignored("a/debug.log", false)).toBe(true);
    expect(ignored("keep.log", false)).toBe(false);
    expect(ignored("root-only.txt", false)).toBe(true);
    expect(ignored("src/root-only.txt", false)).toBe(false);
    expect(ignored("docs/a.tmp", false)).toBe(true);
    expect(ignored("src/a.ts", false)).toBe(false);
  });

  it("skips a line it cannot read, keeping the others", () => {
    const lenient = parseGitignore("[z-a]\n*.log\nbuild/{a,b\n");
    expect(lenient("debug.log", false)).toBe(true);
    expect(lenient("src/a.ts", false)).toBe(false);
  });
});
