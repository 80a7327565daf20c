import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { FileChangeType } from "vscode-languageserver-protocol";
import { WatchedFolders } from "./watched-folders.js";

describe("WatchedFolders", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function watchTree(files: Record<string, string>, maxFolders?: number) {
    const tree = tempTree("watched", files);
    const watched = new WatchedFolders(tree.dir, maxFolders === undefined ? {} : { maxFolders });
    cleanups.push(() => watched.close(), tree.remove);
    await watched.ready;
    /**
     * Takes changes (the kernel's events arrive in batches) until they are `expected`, the last
     * change of each path kept; sorted by path.
     */
    const until = async (expected: { path: string; type: number }[]) => {
      const seen = new Map<string, number>();
      await expect
        .poll(
          () => {
            for (const { path, type } of watched.take()) seen.set(path.slice(tree.dir.length + 1), type);
            return [...seen]
              .map(([path, type]) => ({ path, type }))
              .sort((a, b) => a.path.localeCompare(b.path));
          },
          { timeout: 5_000 },
        )
        .toEqual(expected);
    };
    return { dir: tree.dir, watched, until };
  }

  it("tells created, changed and deleted files apart, one change per path", async () => {
    const { dir, watched, until } = await watchTree({ "a.go": "package a\n", "sub/b.go": "package sub\n" });
    writeFileSync(join(dir, "a.go"), "package a // 1\n");
    writeFileSync(join(dir, "a.go"), "package a // 2\n");
    writeFileSync(join(dir, "sub", "c.go"), "package sub\n");
    rmSync(join(dir, "sub", "b.go"));
    await until([
      { path: "a.go", type: FileChangeType.Changed },
      { path: "sub/b.go", type: FileChangeType.Deleted },
      { path: "sub/c.go", type: FileChangeType.Created },
    ]);
    expect(watched.pending).toBe(false);
  });

  it("tells a change of a file to the symlinks pointing to it, and knows them as links", async () => {
    const { dir, watched, until } = await watchTree({ "lib.ts": "export {};\n", "use.ts": "export {};\n" });
    symlinkSync(join(dir, "lib.ts"), join(dir, "alias.ts"));
    await until([{ path: "alias.ts", type: FileChangeType.Created }]);
    expect([...watched.links]).toEqual([join(dir, "alias.ts")]);
    writeFileSync(join(dir, "lib.ts"), "export const x = 1;\n");
    await until([
      { path: "alias.ts", type: FileChangeType.Changed },
      { path: "lib.ts", type: FileChangeType.Changed },
    ]);
    rmSync(join(dir, "alias.ts"));
    await until([{ path: "alias.ts", type: FileChangeType.Deleted }]);
    expect(watched.links.size).toBe(0);
  });

  it("watches a folder created later and reports the files in it; a removed folder's files are deleted", async () => {
    const { dir, until } = await watchTree({ "go.mod": "module m\n", "old/x.go": "package old\n" });
    mkdirSync(join(dir, "pkg", "inner"), { recursive: true });
    writeFileSync(join(dir, "pkg", "inner", "y.go"), "package inner\n");
    rmSync(join(dir, "old"), { recursive: true });
    // The new folders are watched from when they are seen, their files reported as created.
    await until([
      { path: "old/x.go", type: FileChangeType.Deleted },
      { path: "pkg/inner/y.go", type: FileChangeType.Created },
    ]);
    writeFileSync(join(dir, "pkg", "inner", "y.go"), "package inner // changed\n");
    await until([{ path: "pkg/inner/y.go", type: FileChangeType.Changed }]);
  });

  it("skips hidden folders and node_modules, and says when the folder bound cut it short", async () => {
    const files = {
      "main.ts": "",
      ".git/HEAD": "ref\n",
      "node_modules/dep/index.js": "",
      "a/1.ts": "",
      "b/2.ts": "",
    };
    const whole = await watchTree(files);
    expect(whole.watched.folders).toBe(3); // the root, a, b
    expect(whole.watched.complete).toBe(true);
    writeFileSync(join(whole.dir, ".git", "HEAD"), "other\n");
    writeFileSync(join(whole.dir, "node_modules", "dep", "index.js"), "changed");
    writeFileSync(join(whole.dir, "main.ts"), "export {};\n");
    await whole.until([{ path: "main.ts", type: FileChangeType.Changed }]);

    const bounded = await watchTree(files, 2);
    expect(bounded.watched.folders).toBe(2);
    expect(bounded.watched.complete).toBe(false);
  });

  it("does not follow a symlink to a folder, and says the watch is incomplete", async () => {
    const outside = tempTree("watched-outside", { "lib.go": "package lib\n" });
    cleanups.push(outside.remove);
    const tree = tempTree("watched-link", { "main.go": "package main\n", "sub/sub.go": "package sub\n" });
    cleanups.push(tree.remove);
    symlinkSync(outside.dir, join(tree.dir, "vendored"));
    const watched = new WatchedFolders(tree.dir);
    cleanups.push(() => watched.close());
    await watched.ready;
    // The other folders are walked all the same.
    expect(watched.folders).toBe(2);
    expect([...watched.files].sort()).toEqual([join(tree.dir, "main.go"), join(tree.dir, "sub", "sub.go")]);
    expect(watched.complete).toBe(false);
  });

  it("watches the root again once it is deleted and created anew", async () => {
    const { dir, watched, until } = await watchTree({ "a.go": "package a\n", "sub/b.go": "package sub\n" });
    rmSync(dir, { recursive: true });
    await until([
      { path: "a.go", type: FileChangeType.Deleted },
      { path: "sub/b.go", type: FileChangeType.Deleted },
    ]);
    // While it is gone, calls keep looking for it.
    expect(watched.pending).toBe(true);
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "a.go"), "package a // new\n");
    writeFileSync(join(dir, "sub", "c.go"), "package sub\n");
    await until([
      { path: "a.go", type: FileChangeType.Created },
      { path: "sub/c.go", type: FileChangeType.Created },
    ]);
    expect(watched.folders).toBe(2);
    // Its folders are watched again: later changes are seen.
    writeFileSync(join(dir, "sub", "c.go"), "package sub // 2\n");
    await until([{ path: "sub/c.go", type: FileChangeType.Changed }]);
    expect(watched.pending).toBe(false);
  });

  it("watches the root again when it is deleted and made again between two takes", async () => {
    const { dir, watched } = await watchTree({ "a.go": "package a\n", "sub/b.go": "package sub\n" });
    rmSync(dir, { recursive: true });
    mkdirSync(join(dir, "pkg"), { recursive: true });
    writeFileSync(join(dir, "a.go"), "package a // new\n");
    writeFileSync(join(dir, "pkg", "c.go"), "package pkg\n");
    // One take, one change per path: the kernel's events are all read before it.
    await expect.poll(() => watched.pending, { timeout: 5_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const changes = watched.take().map(({ path, type }) => ({ path: path.slice(dir.length + 1), type }));
    expect(changes.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: "a.go", type: FileChangeType.Changed },
      { path: "pkg/c.go", type: FileChangeType.Created },
      { path: "sub/b.go", type: FileChangeType.Deleted },
    ]);
    writeFileSync(join(dir, "pkg", "c.go"), "package pkg // 2\n");
    await expect
      .poll(() => watched.take().map(({ path }) => path.slice(dir.length + 1)), { timeout: 5_000 })
      .toEqual(["pkg/c.go"]);
  });

  it("looks again at the folders whose entries changed after a burst that overflowed the kernel's queue", async () => {
    const { dir, watched } = await watchTree({ "a.go": "package a\n", "sub/b.go": "package sub\n" });
    // The event loop blocked while a shell makes 10 000 files (two events each: more than the
    // kernel keeps, 16 384 by default), then deletes a.go: libuv drops the overflow notice, and
    // every event after it is lost.
    spawnSync("sh", [
      "-c",
      'cd "$1/sub" && for i in $(seq 1 10000); do echo x > "f$i.go"; done; rm "$1/a.go"',
      "sh",
      dir,
    ]);
    const seen = new Map<string, number>();
    await expect
      .poll(
        () => {
          for (const { path, type } of watched.take()) seen.set(path.slice(dir.length + 1), type);
          return seen.size;
        },
        { timeout: 10_000 },
      )
      .toBe(10_001);
    expect(seen.get("a.go")).toBe(FileChangeType.Deleted);
    expect(seen.get("sub/f10000.go")).toBe(FileChangeType.Created);
    expect([...seen.values()].filter((type) => type === FileChangeType.Created)).toHaveLength(10_000);
    expect(watched.files.size).toBe(10_001);
  });

  it("stops watching on close", async () => {
    const { dir, watched } = await watchTree({ "a.c": "" });
    watched.close();
    writeFileSync(join(dir, "a.c"), "int x;\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(watched.pending).toBe(false);
    expect(watched.folders).toBe(0);
  });
});
