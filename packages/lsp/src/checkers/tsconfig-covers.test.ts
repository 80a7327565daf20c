import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tsconfigCovers } from "./tsconfig-covers.js";

describe("tsconfigCovers", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const covers = (tsconfig: string, member: string): boolean => {
    const root = mkdtempSync(join(tmpdir(), "tsconfig-covers-"));
    roots.push(root);
    writeFileSync(join(root, "tsconfig.json"), tsconfig);
    mkdirSync(join(root, member), { recursive: true });
    return tsconfigCovers(root, join(root, member));
  };

  it("says a folder is covered only when the include certainly takes all of it", () => {
    // No include, no files: every file below.
    expect(covers("{}", "scripts")).toBe(true);
    expect(covers('{ // comment\n "compilerOptions": { "strict": true, },\n}', "packages/a")).toBe(true);
    // An include of another folder: tsc -p . never reads scripts/.
    expect(covers('{ "include": ["src"] }', "scripts")).toBe(false);
    expect(covers('{ "include": ["src/**/*"] }', "scripts")).toBe(false);
    expect(covers('{ "include": ["src", "scripts"] }', "scripts")).toBe(true);
    expect(covers('{ "include": ["packages/**/*"] }', "packages/a")).toBe(true);
    expect(covers('{ "include": ["**/*.ts"] }', "packages/a")).toBe(true);
    // The sources inside it (a package's src/), through a wildcard too; not top-level files only.
    expect(covers('{ "include": ["scripts/src"] }', "scripts")).toBe(true);
    expect(covers('{ "include": ["packages/*/src"] }', "packages/c")).toBe(true);
    expect(covers('{ "include": ["packages/*/src"] }', "tools/c")).toBe(false);
    expect(covers('{ "include": ["*.ts"] }', "scripts")).toBe(false);
    // Excluded whole (or a folder above it); a part excluded leaves the rest read.
    expect(covers('{ "exclude": ["scripts"] }', "scripts")).toBe(false);
    expect(covers('{ "exclude": ["packages/*"] }', "packages/a")).toBe(false);
    expect(covers('{ "exclude": ["scripts/gen"] }', "scripts")).toBe(true);
    expect(covers('{ "exclude": ["dist"] }', "scripts")).toBe(true);
    // What cannot be known here: not covered.
    expect(covers('{ "files": ["index.ts"] }', "scripts")).toBe(false);
    expect(covers('{ "extends": "./base.json" }', "scripts")).toBe(false);
    expect(covers("{ not json", "scripts")).toBe(false);
  });
});
