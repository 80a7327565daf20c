import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settleDiskEvents } from "../files/disk-events.js";
import { tempTree } from "../test-support/fixtures.js";
import { OutsideFolders, outsideFoldersLimit } from "./outside-folders.js";

/** Reads the events the kernel queued, a few turns at most (each bounded). */
async function takeSoon(folders: OutsideFolders, want: number): Promise<string[]> {
  const seen = new Set<string>();
  for (let turn = 0; turn < 50 && seen.size < want; turn++) {
    await settleDiskEvents();
    for (const file of folders.take()) seen.add(file);
    if (seen.size < want) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return [...seen].sort();
}

describe("folders outside a root, watched each on its own", () => {
  it("gives the files changed in them (a checkout: removed and written anew), not in their subfolders", async () => {
    const tree = tempTree("outside-folders", { "b/src/lib.ts": "", "b/src/deep/x.ts": "" });
    const folders = new OutsideFolders();
    try {
      folders.add([join(tree.dir, "b/src"), join(tree.dir, "b/src"), join(tree.dir, "missing")]);
      expect(folders.size).toBe(1);
      unlinkSync(join(tree.dir, "b/src/lib.ts"));
      writeFileSync(join(tree.dir, "b/src/lib.ts"), "export const a = 1;\n");
      writeFileSync(join(tree.dir, "b/src/deep/x.ts"), "export const x = 1;\n");
      mkdirSync(join(tree.dir, "b/src/new"));
      expect(await takeSoon(folders, 2)).toEqual([
        join(tree.dir, "b/src/lib.ts"),
        join(tree.dir, "b/src/new"),
      ]);
      // Taken once.
      expect(folders.take()).toEqual([]);
    } finally {
      folders.close();
      tree.remove();
    }
    expect(folders.size).toBe(0);
    // Closed: nothing more is watched.
    folders.add([tree.dir]);
    expect(folders.size).toBe(0);
  });

  // The kernel drops the watch of a removed folder: it was kept as watched all the same, a
  // later listing did not watch it again, and what a checkout wrote there after was never seen.
  it("watches a folder removed and written again (a checkout of a branch without it, then back)", async () => {
    const tree = tempTree("outside-folders-gone", { "b/src/lib.ts": "", "c/src/x.ts": "" });
    const src = join(tree.dir, "b/src");
    const lib = join(src, "lib.ts");
    const folders = new OutsideFolders();
    try {
      folders.add([src]);
      rmSync(src, { recursive: true });
      await takeSoon(folders, 1);
      mkdirSync(src);
      writeFileSync(lib, "export const a = 1;\n");
      writeFileSync(join(src, "use.ts"), "export const b = 1;\n");
      // What was written while it was not watched: its files, all of them.
      expect(await takeSoon(folders, 2)).toEqual([lib, join(src, "use.ts")]);
      folders.add([src]);
      expect(folders.size).toBe(1);
      writeFileSync(lib, "export const a = 2;\n");
      expect(await takeSoon(folders, 1)).toEqual([lib]);
      // Moved away: its watch would follow the folder to its new name.
      renameSync(src, join(tree.dir, "b/old"));
      await takeSoon(folders, 1);
      writeFileSync(join(tree.dir, "b/old/lib.ts"), "export const a = 3;\n");
      expect(await takeSoon(folders, 1)).toEqual([]);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // Past the bound, folders were left unwatched silently: nothing could say so.
  it("counts the folders past the bound, each once", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < outsideFoldersLimit + 3; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-bound", files);
    const all = Array.from({ length: outsideFoldersLimit + 3 }, (_, i) => join(tree.dir, `d${i}`));
    const folders = new OutsideFolders();
    try {
      folders.add(all);
      folders.add(all);
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(3);
    } finally {
      folders.close();
      tree.remove();
    }
  });
});
