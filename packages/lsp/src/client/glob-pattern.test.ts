import { describe, expect, it } from "vitest";
import { globToRegExp } from "./glob-pattern.js";

describe("globToRegExp", () => {
  it.each([
    // Patterns servers register: gopls, pyright, rust-analyzer.
    ["**/*.{go,mod,sum,work}", "/w/app/main.go", true],
    ["**/*.{go,mod,sum,work}", "/w/go.mod", true],
    ["**/*.{go,mod,sum,work}", "/w/app/main.gox", false],
    ["**", "/w/any/thing.txt", true],
    ["**/pyrightconfig.json", "/w/pyrightconfig.json", true],
    ["**/pyrightconfig.json", "/w/sub/pyrightconfig.json.bak", false],
    ["**/Cargo.{toml,lock}", "/w/crate/Cargo.lock", true],
    // One segment only for *, one character for ?.
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/deep/er/a.ts", true],
    ["file?.c", "file1.c", true],
    ["file?.c", "file10.c", false],
    // Ranges and their negation; nested alternatives.
    ["v[0-9].txt", "v7.txt", true],
    ["v[!0-9].txt", "v7.txt", false],
    ["v[!0-9].txt", "vx.txt", true],
    ["*.{c,{h,hpp}}", "x.hpp", true],
    // Regular-expression characters are literal.
    ["a+b(1).c", "a+b(1).c", true],
    ["a+b(1).c", "aab(1).c", false],
    ["[unclosed", "[unclosed", true],
  ])("%s against %s: %s", (glob, path, matches) => {
    expect(globToRegExp(glob).test(path)).toBe(matches);
  });
});
