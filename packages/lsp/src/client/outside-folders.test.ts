import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settleDiskEvents } from "../files/disk-events.js";
import { tempTree } from "../test-support/fixtures.js";
import { OutsideFolders, outsideFoldersLimit } from "./outside-folders.js";

/** Reads the events the kernel queued, a few turns at most (each bounded). */
async function takeSoon(
  folders: OutsideFolders,
  want: number,
  watchCreated?: (folder: string) => boolean,
): Promise<string[]> {
  const seen = new Set<string>();
  for (let turn = 0; turn < 50 && seen.size < want; turn++) {
    await settleDiskEvents();
    for (const file of folders.take(watchCreated)) seen.add(file);
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
  it("counts the folders past the bound, each once, those created past it too", async () => {
    const files: Record<string, string> = { "new/.keep": "" };
    for (let i = 0; i < outsideFoldersLimit + 3; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-bound", files);
    const all = Array.from({ length: outsideFoldersLimit + 3 }, (_, i) => join(tree.dir, `d${i}`));
    const folders = new OutsideFolders();
    try {
      folders.add(all);
      folders.add(all);
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(3);
      mkdirSync(join(tree.dir, "d0/sub"));
      await takeSoon(folders, 1);
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(4);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // A folder created in a watched one was not watched: its files' changes went unseen until the
  // server's projects were listed again.
  it("watches a folder created in a watched one when asked to, not a symlink to one", async () => {
    const tree = tempTree("outside-folders-new", { "b/src/lib.ts": "", "elsewhere/y.ts": "" });
    const src = join(tree.dir, "b/src");
    const folders = new OutsideFolders();
    try {
      folders.add([src]);
      mkdirSync(join(src, "feature/deeper"), { recursive: true });
      writeFileSync(join(src, "feature/x.ts"), "");
      writeFileSync(join(src, "feature/deeper/z.ts"), "");
      mkdirSync(join(src, "dist"));
      symlinkSync(join(tree.dir, "elsewhere"), join(src, "linked"));
      const taken = await takeSoon(folders, 4, (folder) => !folder.endsWith("dist"));
      // Its files (those written before its watch too), and those of a folder made in it.
      expect(taken).toEqual(
        expect.arrayContaining([join(src, "feature/x.ts"), join(src, "feature/deeper/z.ts")]),
      );
      expect(folders.size).toBe(3);
      writeFileSync(join(src, "feature/x.ts"), "export const x = 1;\n");
      writeFileSync(join(src, "feature/deeper/z.ts"), "export const z = 1;\n");
      writeFileSync(join(src, "dist/built.js"), "");
      writeFileSync(join(tree.dir, "elsewhere/y.ts"), "export const y = 1;\n");
      expect(await takeSoon(folders, 2)).toEqual([
        join(src, "feature/deeper/z.ts"),
        join(src, "feature/x.ts"),
      ]);
      expect(folders.size).toBe(3);
    } finally {
      folders.close();
      tree.remove();
    }
  });
  // An npm install in a package outside the root whose sources are at its top (held, so watched)
  // created node_modules/: each of its folders was watched, up to the bound (later folders the
  // projects read then refused, and counted as not watched), and each .d.ts there sent to
  // tsserver as changed. tsserver reads neither it nor a dot-folder of an include.
  it("does not watch a created node_modules or dot-folder, nor what is in them", async () => {
    const tree = tempTree("outside-folders-nm", { "b/index.ts": "" });
    const b = join(tree.dir, "b");
    const folders = new OutsideFolders();
    try {
      folders.add([b]);
      for (let i = 0; i < 20; i++) {
        mkdirSync(join(b, `node_modules/p${i}/lib`), { recursive: true });
        writeFileSync(join(b, `node_modules/p${i}/index.d.ts`), "");
      }
      mkdirSync(join(b, ".turbo/cache"), { recursive: true });
      mkdirSync(join(b, "feature"));
      writeFileSync(join(b, "feature/x.ts"), "");
      const taken = await takeSoon(folders, 4);
      expect(taken).toContain(join(b, "feature/x.ts"));
      expect(taken.filter((file) => file.includes("/node_modules/p"))).toEqual([]);
      expect(folders.size).toBe(2);
      expect(folders.unwatched).toBe(0);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // A folder created then removed (a checkout of a branch with it, then back) was kept among
  // those to watch again once back, for good: each took a place under the bound, and after a few
  // checkouts folders that exist were refused and said not watched.
  it("forgets a created folder once removed: it takes no place under the bound", async () => {
    const tree = tempTree("outside-folders-churn", { "b/src/lib.ts": "" });
    const src = join(tree.dir, "b/src");
    const half = Math.floor(outsideFoldersLimit * 0.6);
    const folders = new OutsideFolders();
    try {
      folders.add([src]);
      for (let i = 0; i < half; i++) mkdirSync(join(src, `d${i}`));
      await takeSoon(folders, half);
      expect(folders.size).toBe(half + 1);
      for (let i = 0; i < half; i++) rmSync(join(src, `d${i}`), { recursive: true });
      await takeSoon(folders, half);
      for (let i = 0; i < half; i++) mkdirSync(join(src, `e${i}`));
      await takeSoon(folders, half);
      expect(folders.size).toBe(half + 1);
      expect(folders.unwatched).toBe(0);
      // Back: watched again (seen in its parent).
      mkdirSync(join(src, "d0"));
      writeFileSync(join(src, "d0/x.ts"), "");
      expect(await takeSoon(folders, 2)).toEqual([join(src, "d0"), join(src, "d0/x.ts")]);
      writeFileSync(join(src, "d0/x.ts"), "export const x = 1;\n");
      expect(await takeSoon(folders, 1)).toEqual([join(src, "d0/x.ts")]);
      // Past the bound, refused, then removed: no longer said not watched.
      for (let i = 0; i < half; i++) mkdirSync(join(src, `g${i}`));
      await takeSoon(folders, half);
      expect(folders.unwatched).toBeGreaterThan(0);
      for (let i = 0; i < half; i++) rmSync(join(src, `g${i}`), { recursive: true });
      await takeSoon(folders, half);
      expect(folders.unwatched).toBe(0);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // A folder the projects read, watched, then removed for good (a package deleted) kept its place
  // under the bound, and one past the bound, removed, was still counted: after a few such
  // removals in a long session, folders that exist were refused, and `status` said more were not
  // watched than there are.
  it("frees a removed folder's place under the bound, watches one past the bound in it, and stops counting one removed", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < outsideFoldersLimit + 3; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-freed", files);
    const folder = (i: number) => join(tree.dir, `d${i}`);
    const all = Array.from({ length: outsideFoldersLimit + 3 }, (_, i) => folder(i));
    const [past0, past1, past2] = [
      folder(outsideFoldersLimit),
      folder(outsideFoldersLimit + 1),
      folder(outsideFoldersLimit + 2),
    ];
    const folders = new OutsideFolders();
    try {
      folders.add(all);
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(3);
      // Five watched folders removed for good, one past the bound too.
      for (let i = 0; i < 5; i++) rmSync(folder(i), { recursive: true });
      rmSync(past1, { recursive: true });
      const taken = new Set<string>();
      for (let turn = 0; turn < 50 && folders.unwatched > 0; turn++) {
        await settleDiskEvents();
        for (const file of folders.take()) taken.add(file);
        if (folders.unwatched > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(folders.unwatched).toBe(0);
      expect(folders.size).toBe(outsideFoldersLimit - 5 + 2);
      // Watched in the places freed, their files given as changed (what changed before is not known).
      expect([...taken]).toEqual(expect.arrayContaining([join(past0, "m.ts"), join(past2, "m.ts")]));
      writeFileSync(join(past2, "m.ts"), "export const m = 1;\n");
      expect(await takeSoon(folders, 1)).toEqual([join(past2, "m.ts")]);
      // New folders the projects read take the places left.
      const added = [0, 1, 2].map((i) => join(tree.dir, `n${i}`));
      for (const path of added) mkdirSync(path);
      folders.add(added);
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(0);
      // The removed ones back: no place left, counted.
      for (let i = 0; i < 5; i++) mkdirSync(folder(i));
      mkdirSync(past1);
      await settleDiskEvents();
      folders.take();
      expect(folders.size).toBe(outsideFoldersLimit);
      expect(folders.unwatched).toBe(6);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // A folder past the bound is not watched: its removal (a checkout) brings no event, and it was
  // counted as not watched for good.
  it("recounts the folders past the bound as they are on disk, without any event", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < outsideFoldersLimit + 3; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-recount", files);
    const folder = (i: number) => join(tree.dir, `d${i}`);
    const folders = new OutsideFolders();
    try {
      folders.add(Array.from({ length: outsideFoldersLimit + 3 }, (_, i) => folder(i)));
      expect(folders.recount()).toBe(3);
      for (let i = 0; i < 3; i++) rmSync(folder(outsideFoldersLimit + i), { recursive: true });
      expect(folders.recount()).toBe(0);
      expect(folders.unwatched).toBe(0);
      mkdirSync(folder(outsideFoldersLimit));
      expect(folders.recount()).toBe(1);
      // A watched one removed (its event not read yet): its place goes to the one past the bound.
      rmSync(folder(0), { recursive: true });
      expect(folders.recount()).toBe(0);
      expect(folders.size).toBe(outsideFoldersLimit);
    } finally {
      folders.close();
      tree.remove();
    }
  });
  // A checkout of a branch without more folders than the bound (the 500 watched and some past
  // it), then back: the folders past the bound, removed, went among those gone, whose oldest were
  // forgotten past 500: once back, those forgotten were neither watched nor counted (`status`
  // said every folder was watched), until the projects happened to be listed again.
  it("watches or counts every folder back after more than the bound were removed at once", () => {
    const total = outsideFoldersLimit + 40;
    const files: Record<string, string> = {};
    for (let i = 0; i < total; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-all-gone", files);
    const folder = (i: number) => join(tree.dir, `d${i}`);
    const folders = new OutsideFolders();
    try {
      folders.add(Array.from({ length: total }, (_, i) => folder(i)));
      expect([folders.size, folders.recount()]).toEqual([outsideFoldersLimit, 40]);
      for (let i = 0; i < total; i++) rmSync(folder(i), { recursive: true });
      expect([folders.recount(), folders.size]).toEqual([0, 0]);
      for (let i = 0; i < total; i++) mkdirSync(folder(i));
      expect([folders.recount(), folders.size]).toEqual([40, outsideFoldersLimit]);
    } finally {
      folders.close();
      tree.remove();
    }
  });

  // `status` recounts while the server stops (its state still running): the folders past the
  // bound were watched again on a closed instance, whose watches nothing ever ended.
  it("watches nothing once closed, a recount or take after it too", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < outsideFoldersLimit + 3; i++) files[`d${i}/m.ts`] = "";
    const tree = tempTree("outside-folders-closed", files);
    const folders = new OutsideFolders();
    try {
      folders.add(Array.from({ length: outsideFoldersLimit + 3 }, (_, i) => join(tree.dir, `d${i}`)));
      folders.close();
      folders.recount();
      folders.take();
      expect(folders.size).toBe(0);
      expect(folders.take()).toEqual([]);
    } finally {
      folders.close();
      tree.remove();
    }
  });
});
