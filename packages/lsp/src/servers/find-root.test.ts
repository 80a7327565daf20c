import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findBinary } from "./find-binary.js";
import { findRoot, isInside } from "./find-root.js";
import { defaultServers } from "./server-table.js";

describe("findRoot and findBinary", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-root-")));
    mkdirSync(join(dir, "app", "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(join(dir, "app", "tsconfig.json"), "{}");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("counts a child named ..x as inside, and a sibling sharing the prefix as outside", () => {
    expect(isInside("/w", "/w/..x/a.ts")).toBe(true);
    expect(isInside("/w", "/w")).toBe(true);
    expect(isInside("/w", "/w2/a.ts")).toBe(false);
    expect(isInside("/w", "/a.ts")).toBe(false);
  });

  it("takes the nearest ancestor holding a marker, never above the working directory", () => {
    const markers = { markers: ["tsconfig.json", "package.json"] };
    expect(findRoot(join(dir, "app", "src", "a.ts"), markers, dir)).toEqual({
      root: join(dir, "app"),
      marker: "tsconfig.json",
    });
    expect(findRoot(join(dir, "app", "src", "a.ts"), { markers: ["go.mod"] }, dir)).toBeUndefined();
    expect(
      findRoot(join(dir, "app", "src", "a.ts"), { markers: ["package.json"] }, join(dir, "app")),
    ).toBeUndefined();
  });

  it("roots a TypeScript file at the tsconfig.json or jsconfig.json above a nearer package.json", () => {
    const spec = defaultServers.find((server) => server.language === "typescript")!;
    const tree = (files: string[]) => {
      for (const file of files) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), "{}");
      }
    };
    // A monorepo whose one tsconfig includes "packages/*/src": its packages hold a package.json only.
    tree(["mono/tsconfig.json", "mono/packages/c/package.json", "mono/packages/d/package.json"]);
    expect(findRoot(join(dir, "mono", "packages", "c", "src", "c.ts"), spec, dir)).toEqual({
      root: join(dir, "mono"),
      marker: "tsconfig.json",
    });
    tree(["js/jsconfig.json", "js/packages/e/package.json"]);
    expect(findRoot(join(dir, "js", "packages", "e", "e.js"), spec, dir)).toEqual({
      root: join(dir, "js"),
      marker: "jsconfig.json",
    });
    // A package with a tsconfig of its own keeps it.
    tree(["mono/packages/f/package.json", "mono/packages/f/tsconfig.json"]);
    expect(findRoot(join(dir, "mono", "packages", "f", "src", "f.ts"), spec, dir)).toEqual({
      root: join(dir, "mono", "packages", "f"),
      marker: "tsconfig.json",
    });
    // No config above: the nearest package.json, as before.
    tree(["plain/package.json", "plain/packages/g/package.json"]);
    expect(findRoot(join(dir, "plain", "packages", "g", "g.js"), spec, dir)).toEqual({
      root: join(dir, "plain", "packages", "g"),
      marker: "package.json",
    });
    // The working directory bounds the walk: a config above it is not looked at.
    expect(
      findRoot(join(dir, "mono", "packages", "c", "src", "c.ts"), spec, join(dir, "mono", "packages")),
    ).toEqual({ root: join(dir, "mono", "packages", "c"), marker: "package.json" });
  });

  it("looks in the project's node_modules/.bin before PATH and says where it looked when missing", () => {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", ".bin", "tool"), "#!/bin/sh\n", { mode: 0o755 });
    expect(findBinary("tool", [dir], [], "/usr/bin")).toEqual({
      found: true,
      path: join(dir, "node_modules", ".bin", "tool"),
    });
    const missing = findBinary("no-such-server", [dir], [], "");
    expect(missing.found).toBe(false);
    expect(!missing.found && missing.reason).toContain("not in node_modules/.bin, .venv/bin or venv/bin");
  });
});
