import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveInside } from "./workspace-containment.js";
import { tempDir } from "../testing/fixture-tools.js";

describe("workspace containment", () => {
  const root = tempDir();
  const outside = tempDir("tools-outside-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "x");
  writeFileSync(join(outside, "secret"), "s");
  symlinkSync(outside, join(root, "escape"));
  symlinkSync(join(root, "src"), join(root, "alias"));

  it("resolves relative and absolute paths inside the working directory", () => {
    expect(resolveInside(root, "src/a.ts")).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(root, join(root, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(resolveInside(root, ".")).toBe(root);
    expect(resolveInside(root, "src/../src/a.ts")).toBe(join(root, "src", "a.ts"));
  });

  it("accepts a file that does not exist yet inside", () => {
    expect(resolveInside(root, "new/dir/file.ts")).toBe(join(root, "new", "dir", "file.ts"));
  });

  it("accepts a symlink that stays inside", () => {
    expect(resolveInside(root, "alias/a.ts")).toBe(join(root, "alias", "a.ts"));
  });

  it("refuses .. escapes and absolute paths outside, saying where they land", () => {
    expect(() => resolveInside(root, "../x")).toThrow(/outside the working directory/);
    expect(() => resolveInside(root, "/etc/passwd")).toThrow(
      `path '/etc/passwd' resolves to /etc/passwd, outside the working directory ${root}; use a path inside it`,
    );
    expect(() => resolveInside(root, `${root}-sibling/file`)).toThrow(/outside the working directory/);
  });

  it("refuses a symlink escape, existing or not yet written", () => {
    expect(() => resolveInside(root, "escape/secret")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "escape/new-file")).toThrow(/goes through a symlink/);
    expect(() => resolveInside(root, "escape")).toThrow(/goes through a symlink/);
  });

  it("refuses empty paths and NUL bytes", () => {
    expect(() => resolveInside(root, "")).toThrow(/empty/);
    expect(() => resolveInside(root, "a\0b")).toThrow(/NUL/);
  });
});
