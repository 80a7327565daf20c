import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outerIgnoreLayers, walkFiles } from "./walk-files.js";

let dir: string;
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const walk = async (root = dir) =>
  (await walkFiles(root, (name) => name.endsWith(".py"), undefined, await outerIgnoreLayers(dir, root))).map(
    (path) => relative(dir, path),
  );

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "walk-"));
  for (const path of ["a.py", "gen/b.py", "src/c.py", "src/d.py", "src/vendor/e.py"]) write(path, "x = 1\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("walkFiles ignore files, as ripgrep and ast-grep read them", () => {
  it("honours .ignore, which overrides .gitignore", async () => {
    write(".gitignore", "src/d.py\n");
    write(".ignore", "gen/\n!src/d.py\n");
    write("src/.ignore", "vendor/\n");
    expect(await walk()).toEqual(["a.py", "src/c.py", "src/d.py"]);
    expect(await walk(join(dir, "src"))).toEqual(["src/c.py", "src/d.py"]);
  });

  it("honours .git/info/exclude, below .gitignore", async () => {
    write(".git/info/exclude", "gen/\nsrc/c.py\n");
    write(".gitignore", "!src/c.py\n");
    expect(await walk()).toEqual(["a.py", "src/c.py", "src/d.py", "src/vendor/e.py"]);
    write(".git/info/exclude", "vendor/\n");
    expect(await walk(join(dir, "src"))).toEqual(["src/c.py", "src/d.py"]);
  });
});
