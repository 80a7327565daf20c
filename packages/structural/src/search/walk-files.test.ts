import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { astGrepBinary } from "../__fixtures__/ast-grep-cli.js";
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

  describe("from a working directory below the repository's root", () => {
    /** What ast-grep (the @ast-grep/cli devDependency) searches from `cwd`, or undefined without it. */
    const astGrepFiles = (cwd: string): string[] | undefined => {
      const binary = astGrepBinary();
      if (!binary) return undefined;
      const result = spawnSync(binary, ["run", "-p", "x = 1", "-l", "python", "--json=compact", "."], {
        cwd,
        encoding: "utf8",
      });
      const matches = JSON.parse(result.stdout) as { file: string }[];
      return [...new Set(matches.map((m) => relative(dir, join(cwd, m.file))))].sort();
    };
    const walkFrom = async (top: string, root = top) =>
      (
        await walkFiles(root, (name) => name.endsWith(".py"), undefined, await outerIgnoreLayers(top, root))
      ).map((path) => relative(dir, path));

    it("honours the ignore files of the folders above it, up to the repository's root", async () => {
      mkdirSync(join(dir, ".git", "info"), { recursive: true });
      write(".gitignore", "vendor/\n");
      write(".git/info/exclude", "d.py\n");
      const top = join(dir, "src");
      expect(await walkFrom(top)).toEqual(["src/c.py"]);
      expect(await walkFrom(dir, top)).toEqual(["src/c.py"]);
      const theirs = astGrepFiles(top);
      if (theirs) expect(await walkFrom(top)).toEqual(theirs);
    });

    it("stops at the nearest repository holding the folder searched (a project inside a dotfiles home)", async () => {
      // The outer repository ignores everything; src is a repository of its own.
      mkdirSync(join(dir, ".git"), { recursive: true });
      write(".gitignore", "*\n");
      mkdirSync(join(dir, "src", ".git"), { recursive: true });
      const project = join(dir, "src");
      // From the outer folder into the project, and from inside the project up to its root.
      expect(await walkFrom(dir, project)).toEqual(["src/c.py", "src/d.py", "src/vendor/e.py"]);
      expect(await walkFrom(join(project, "vendor"), project)).toEqual([
        "src/c.py",
        "src/d.py",
        "src/vendor/e.py",
      ]);
      expect(await walkFrom(project, join(project, "vendor"))).toEqual(["src/vendor/e.py"]);
      const theirs = astGrepFiles(project);
      if (theirs) expect(await walkFrom(project)).toEqual(theirs);
    });

    it("reads none above it outside a git repository, as ast-grep", async () => {
      write(".gitignore", "vendor/\n");
      const top = join(dir, "src");
      expect(await walkFrom(top)).toEqual(["src/c.py", "src/d.py", "src/vendor/e.py"]);
      const theirs = astGrepFiles(top);
      if (theirs) expect(await walkFrom(top)).toEqual(theirs);
    });
  });
});
