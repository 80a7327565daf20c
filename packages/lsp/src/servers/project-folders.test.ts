import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeRootSearch, findProjectRoots } from "./project-folders.js";
import { defaultServers } from "./server-table.js";

describe("findProjectRoots", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-roots-")));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const touch = (path: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), "");
  };
  const found = (search: ReturnType<typeof findProjectRoots>) =>
    search.roots.map((r) => `${r.spec.language} ${r.root.slice(dir.length + 1) || "."} ${r.marker}`);

  it("finds monorepo packages below the working directory, skipping dependencies, VCS and build outputs", () => {
    touch("package.json");
    touch("packages/web/tsconfig.json");
    touch("packages/web/package.json");
    touch("packages/group/api/go.mod");
    touch("services/py/pyproject.toml");
    for (const skipped of ["node_modules/dep", ".git/x", ".venv/lib", "target/debug", "build/gen", "dist/x"])
      touch(`${skipped}/package.json`);
    touch("a/b/c/d/e/go.mod"); // five levels down: past the bound
    symlinkSync(join(dir, "packages"), join(dir, "linked"));
    const search = findProjectRoots(dir, defaultServers);
    expect(found(search)).toEqual([
      // Breadth first, each level in name order.
      "typescript . package.json",
      "typescript packages/web tsconfig.json",
      "python services/py pyproject.toml",
      "go packages/group/api go.mod",
    ]);
    expect(search.truncated).toBe(false);
    expect(describeRootSearch(search)).toBe(
      "within 4 folder levels below the working directory (hidden, dependency and build-output folders skipped)",
    );
  });

  it("finds a C root by its build/compile_commands.json, though build folders are not searched", () => {
    touch("native/build/compile_commands.json");
    touch("native/build/gen/package.json"); // inside the build output: never a root
    touch("plain/build/other.txt"); // a build folder without a database: no root
    const search = findProjectRoots(dir, defaultServers);
    expect(found(search)).toEqual(["c native build/compile_commands.json"]);
  });

  it("stops at its folder bound and says so", () => {
    for (const name of ["a", "b", "c", "d"]) touch(`${name}/go.mod`);
    const search = findProjectRoots(dir, defaultServers, { maxDepth: 4, maxFolders: 3 });
    expect(found(search)).toEqual(["go a go.mod", "go b go.mod"]);
    expect(search.truncated).toBe(true);
    expect(describeRootSearch(search)).toContain("stopped at its bound of 3 folders");
  });
});
