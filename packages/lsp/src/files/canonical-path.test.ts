import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { canonicalPath, linkOf, oneSpellingEach, throughLink } from "./canonical-path.js";
import { FileKeyedMap, FileKeyedSet } from "./file-keyed.js";

describe("one name per file, however it is reached", () => {
  const tree = tempTree("canonical", { "real/lib.ts": "export {};\n" });
  afterAll(() => tree.remove());
  const real = join(tree.dir, "real");
  symlinkSync(real, join(tree.dir, "proj"));
  symlinkSync(join(real, "lib.ts"), join(real, "alias.ts"));
  mkdirSync(join(real, "sub"));
  writeFileSync(join(real, "sub", "a.ts"), "");

  it("resolves a symlinked folder, a symlinked file, and a file not there yet by its folder", () => {
    expect(canonicalPath(join(tree.dir, "proj", "lib.ts"))).toBe(join(real, "lib.ts"));
    expect(canonicalPath(join(real, "alias.ts"))).toBe(join(real, "lib.ts"));
    expect(canonicalPath(join(tree.dir, "proj", "new.ts"))).toBe(join(real, "new.ts"));
  });

  it("keeps the first path of each file, and tells the link a path went through", () => {
    expect(
      oneSpellingEach([join(tree.dir, "proj", "lib.ts"), join(real, "lib.ts"), join(real, "alias.ts")]),
    ).toEqual([join(tree.dir, "proj", "lib.ts")]);
    const link = linkOf(join(tree.dir, "proj", "sub", "a.ts"));
    expect(link).toEqual({ to: real, through: join(tree.dir, "proj") });
    expect(linkOf(join(real, "lib.ts"))).toBeUndefined();
    expect(throughLink(join(real, "use.ts"), [link!])).toBe(join(tree.dir, "proj", "use.ts"));
    expect(throughLink(join(tree.dir, "other.ts"), [link!])).toBe(join(tree.dir, "other.ts"));
  });

  it("tells the link itself when it is named like its target, or is a file", () => {
    mkdirSync(join(tree.dir, "vendor", "proj"), { recursive: true });
    mkdirSync(join(tree.dir, "vendor", "zlib"));
    mkdirSync(join(tree.dir, "w"));
    symlinkSync(join(tree.dir, "vendor", "proj"), join(tree.dir, "w", "proj"));
    const named = linkOf(join(tree.dir, "w", "proj", "main.c"));
    expect(named).toEqual({ to: join(tree.dir, "vendor", "proj"), through: join(tree.dir, "w", "proj") });
    const beside = join(tree.dir, "vendor", "zlib", "z.h");
    expect(throughLink(beside, [named!])).toBe(beside);
    mkdirSync(join(tree.dir, "a"));
    mkdirSync(join(tree.dir, "b"));
    writeFileSync(join(tree.dir, "b", "x.c"), "");
    symlinkSync(join(tree.dir, "b", "x.c"), join(tree.dir, "a", "x.c"));
    const file = linkOf(join(tree.dir, "a", "x.c"));
    expect(file).toEqual({ to: join(tree.dir, "b", "x.c"), through: join(tree.dir, "a", "x.c") });
    expect(throughLink(join(tree.dir, "b", "y.c"), [file!])).toBe(join(tree.dir, "b", "y.c"));
  });

  it("sees a folder made a symlink, a link pointing elsewhere and a link removed after it resolved a path", async () => {
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const root = join(tree.dir, "later");
    mkdirSync(join(root, "pkg"), { recursive: true });
    writeFileSync(join(root, "pkg", "index.ts"), "");
    const used = join(root, "pkg", "index.ts");
    expect(canonicalPath(used)).toBe(used);
    // A package manager linking the workspace's package in its place: the folder moved (its
    // files keep their inodes) and a link left where it was.
    mkdirSync(join(root, "packages"));
    renameSync(join(root, "pkg"), join(root, "packages", "pkg"));
    symlinkSync(join(root, "packages", "pkg"), join(root, "pkg"));
    await nextTurn();
    expect(canonicalPath(used)).toBe(join(root, "packages", "pkg", "index.ts"));
    // The link pointed elsewhere.
    mkdirSync(join(root, "other"));
    writeFileSync(join(root, "other", "index.ts"), "");
    unlinkSync(join(root, "pkg"));
    symlinkSync(join(root, "other"), join(root, "pkg"));
    await nextTurn();
    expect(canonicalPath(used)).toBe(join(root, "other", "index.ts"));
    // The link removed, a plain folder in its place; then none at all.
    unlinkSync(join(root, "pkg"));
    mkdirSync(join(root, "pkg"));
    writeFileSync(used, "");
    await nextTurn();
    expect(canonicalPath(used)).toBe(used);
    rmSync(join(root, "pkg"), { recursive: true });
    symlinkSync(join(root, "packages", "pkg"), join(root, "pkg"));
    await nextTurn();
    expect(canonicalPath(used)).toBe(join(root, "packages", "pkg", "index.ts"));
    unlinkSync(join(root, "pkg"));
    await nextTurn();
    expect(canonicalPath(used)).toBe(used);
  });

  it("keys maps and sets of files by real path; other keys as they are", () => {
    const map = new FileKeyedMap<number>([[join(tree.dir, "proj", "lib.ts"), 1]]);
    expect(map.get(join(real, "alias.ts"))).toBe(1);
    expect(map.has(join(real, "lib.ts"))).toBe(true);
    map.set("go\u0000root", 2);
    expect(map.get("go\u0000root")).toBe(2);
    const set = new FileKeyedSet([join(real, "lib.ts")]);
    expect(set.has(join(tree.dir, "proj", "lib.ts"))).toBe(true);
    expect(set.delete(join(real, "alias.ts"))).toBe(true);
    expect(set.size).toBe(0);
  });
});
