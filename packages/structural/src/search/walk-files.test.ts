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
/** The .py files searched in `root` from a working directory `top` (the ignore files above it read), relative to `dir`. */
const walkFrom = async (top: string, root = top) =>
  (await walkFiles(root, (name) => name.endsWith(".py"), undefined, await outerIgnoreLayers(top, root))).map(
    (path) => relative(dir, path),
  );
/** The .py files searched in `root` from `dir`. */
const walk = (root = dir) => walkFrom(dir, root);
/** What ast-grep (the @ast-grep/cli devDependency) searches from `cwd`, relative to `dir`, or undefined without it. */
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

describe("walkFiles with a .git file (a worktree's, a submodule's)", () => {
  const git = (cwd: string, ...args: string[]) => {
    const result = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd,
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
    return result.stdout;
  };
  it("honours a worktree's exclude, in the common git directory its .git file leads to", async () => {
    const main = join(dir, "main");
    mkdirSync(main);
    write("main/a.py", "x = 1\n");
    git(main, "init", "-q");
    git(main, "add", ".");
    git(main, "commit", "-qm", "init");
    git(main, "worktree", "add", "-q", join(dir, "wt"));
    write("main/.git/info/exclude", "ex.py\n");
    write("wt/ex.py", "x = 1\n");
    write("wt/sub/ex.py", "x = 1\n");
    const worktree = join(dir, "wt");
    expect(await walkFrom(worktree)).toEqual(["wt/a.py"]);
    // From a folder below the worktree's root, the exclude is an outer layer.
    expect(await walkFrom(join(worktree, "sub"))).toEqual([]);
    expect(await walkFrom(dir, worktree)).toEqual(["wt/a.py"]);
    const theirs = astGrepFiles(worktree);
    if (theirs) expect(await walkFrom(worktree)).toEqual(theirs);
  });

  it("honours the exclude of a separate git directory without a commondir, as git does", async () => {
    // `git init --separate-git-dir` writes the .git file a submodule has: `gitdir: <dir>`,
    // no commondir. ast-grep reads no exclude there; git (check-ignore below) does.
    const repo = join(dir, "repo");
    mkdirSync(repo);
    git(repo, "init", "-q", "--separate-git-dir", join(dir, "gitdir"));
    write("gitdir/info/exclude", "ex.py\n");
    write("repo/ex.py", "x = 1\n");
    write("repo/b.py", "x = 1\n");
    expect(git(repo, "check-ignore", "ex.py").trim()).toBe("ex.py");
    expect(await walkFrom(repo)).toEqual(["repo/b.py"]);
  });

  it("reads no exclude, and does not fail, when the .git file names no git directory", async () => {
    for (const text of ["gitdir: ../nowhere\n", "not a pointer\n", "", "gitdir: \n"]) {
      write("repo/.git", text);
      write("repo/sub/.git", text);
      write("repo/b.py", "x = 1\n");
      write("repo/sub/c.py", "x = 1\n");
      expect(await walkFrom(join(dir, "repo"))).toEqual(["repo/b.py", "repo/sub/c.py"]);
      expect(await walkFrom(join(dir, "repo", "sub"))).toEqual(["repo/sub/c.py"]);
    }
  });
});

describe("walkFiles .ignore files above the folder searched, as ripgrep and ast-grep read them", () => {
  it("reads them outside any repository", async () => {
    write(".ignore", "d.py\n");
    write("src/.ignore", "vendor/\n");
    write("src/vendor/.ignore", "!nothing\n");
    const top = join(dir, "src", "vendor");
    write("src/vendor/d.py", "x = 1\n");
    expect(await walkFrom(join(dir, "src"))).toEqual(["src/c.py"]);
    // The folder searched is never judged, as in ripgrep: only its d.py is ignored.
    expect(await walkFrom(top)).toEqual(["src/vendor/e.py"]);
    for (const folder of [join(dir, "src"), top]) {
      const theirs = astGrepFiles(folder);
      if (theirs) expect(await walkFrom(folder)).toEqual(theirs);
    }
  });

  it("reads them above the repository's root, where .gitignore is not read", async () => {
    write(".ignore", "d.py\n");
    write(".gitignore", "c.py\n");
    const project = join(dir, "src");
    mkdirSync(join(project, ".git"));
    expect(await walkFrom(project)).toEqual(["src/c.py", "src/vendor/e.py"]);
    expect(await walkFrom(dir, project)).toEqual(["src/c.py", "src/vendor/e.py"]);
    const theirs = astGrepFiles(project);
    if (theirs) expect(await walkFrom(project)).toEqual(theirs);
  });
});

describe("walkFiles ignore files that are not regular files", () => {
  it("reads past a FIFO named .ignore, .gitignore or info/exclude, above the folder searched or in it, without blocking on it", async () => {
    // Opening a FIFO for reading blocks until a writer comes: every search under it would hang.
    mkdirSync(join(dir, "src", "gitdir", "info"), { recursive: true });
    for (const fifo of [".ignore", "src/.gitignore", "src/vendor/.ignore", "src/gitdir/info/exclude"])
      spawnSync("mkfifo", [join(dir, fifo)]);
    write("src/.git", "gitdir: gitdir\n");
    write("src/.ignore", "d.py\n");
    expect(await walk(join(dir, "src"))).toEqual(["src/c.py", "src/vendor/e.py"]);
    expect(await walk()).toEqual(["a.py", "gen/b.py", "src/c.py", "src/vendor/e.py"]);
  }, 10_000);
});
