import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pastRacyMargin } from "../test-support/fixtures.js";
import { FileTexts, FolderListings, readTextFile, settledBefore } from "./file-texts.js";

describe("FileTexts", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function file(content: string, ageSeconds: number): string {
    const dir = mkdtempSync(join(tmpdir(), "lsp-texts-"));
    dirs.push(dir);
    const path = join(dir, "a.ts");
    writeFileSync(path, content);
    const past = Date.now() / 1000 - ageSeconds;
    utimesSync(path, past, past);
    if (ageSeconds > 0) pastRacyMargin();
    return path;
  }

  it("reuses the text of an unchanged file and sees a rewrite of the same size", () => {
    const path = file("one\ntwo\n", 60);
    const texts = new FileTexts();
    const first = texts.read(path);
    expect(first.lines()).toEqual(["one", "two", ""]);
    expect(texts.read(path).lines()).toBe(first.lines());
    writeFileSync(path, "ONE\ntwo\n");
    expect(texts.read(path).text).toBe("ONE\ntwo\n");
  });

  it("never reuses a read of a file changed just before it (same-tick rewrites)", () => {
    const path = file("alpha\n", 0);
    const texts = new FileTexts();
    expect(texts.read(path).text).toBe("alpha\n");
    writeFileSync(path, "omega\n");
    expect(texts.read(path).text).toBe("omega\n");
  });

  it("never reuses a read just after a rewrite that put an old mtime back (cp -p, tar x), whose ctime is recent", () => {
    // On a whole-second filesystem a second such rewrite within the same second leaves the
    // identity (inode, size, mtime, ctime) as it was: only the ctime tells the first was recent.
    const second = 1_700_000_000_000_000_000n;
    expect(settledBefore(second - 60_000_000_000n, second, 1_700_000_000_500)).toBe(false);
    expect(settledBefore(second - 60_000_000_000n, second - 3_000_000_000n, 1_700_000_000_500)).toBe(true);
    const path = file("int v = 1;\n", 60);
    const texts = new FileTexts();
    const past = Date.now() / 1000 - 60;
    writeFileSync(path, "int v = 2;\n");
    utimesSync(path, past, past);
    const first = texts.read(path);
    expect(first.text).toBe("int v = 2;\n");
    expect(texts.read(path)).not.toBe(first);
    pastRacyMargin();
    const settled = texts.read(path);
    expect(texts.read(path)).toBe(settled);
  });

  it("reread always goes to disk", () => {
    const path = file("x\n", 60);
    const texts = new FileTexts();
    texts.read(path);
    expect(texts.reread(path).text).toBe("x\n");
  });

  it("tryRead: nothing for a missing or too large file; bounds on what is kept", () => {
    const small = file("int a;\n", 60);
    const large = file("x".repeat(50), 60);
    const texts = new FileTexts({ largestKept: 20, totalKept: 15 });
    expect(texts.tryRead(join(small, "..", "missing.c"))).toBeUndefined();
    expect(texts.tryRead(large, 10)).toBeUndefined();
    // Kept: the same view again. Over largestKept: read, not kept, a new view each time.
    expect(texts.tryRead(small)).toBe(texts.tryRead(small));
    const first = texts.tryRead(large);
    expect(first?.text).toHaveLength(50);
    expect(texts.tryRead(large)).not.toBe(first);
    // Past totalKept the oldest entry goes.
    const other = file("int other;\n", 60);
    const before = texts.tryRead(small);
    texts.tryRead(other);
    expect(texts.tryRead(small)).not.toBe(before);
  });

  it("refuses a FIFO or a folder without blocking on it (nothing ever writes to the FIFO)", () => {
    const dir = mkdtempSync(join(tmpdir(), "lsp-texts-"));
    dirs.push(dir);
    execFileSync("mkfifo", [join(dir, "pipe.ts")]);
    const texts = new FileTexts();
    expect(() => texts.read(join(dir, "pipe.ts"))).toThrow(
      "it is a FIFO, socket or device, not a regular file",
    );
    expect(() => texts.reread(join(dir, "pipe.ts"))).toThrow(/not a regular file/);
    expect(texts.tryRead(join(dir, "pipe.ts"))).toBeUndefined();
    expect(() => texts.read(dir)).toThrow(expect.objectContaining({ code: "EISDIR" }));
  });

  it("readTextFile reads a marker or a configuration file, refusing a FIFO, a folder, or a file over its bound", () => {
    const dir = mkdtempSync(join(tmpdir(), "lsp-texts-"));
    dirs.push(dir);
    writeFileSync(join(dir, "Cargo.toml"), "[workspace]\n");
    execFileSync("mkfifo", [join(dir, "tsconfig.json")]);
    expect(readTextFile(join(dir, "Cargo.toml"))).toBe("[workspace]\n");
    expect(() => readTextFile(join(dir, "tsconfig.json"))).toThrow(
      expect.objectContaining({ code: "EINVAL" }),
    );
    expect(() => readTextFile(dir)).toThrow(expect.objectContaining({ code: "EISDIR" }));
    expect(() => readTextFile(join(dir, "Cargo.toml"), 4)).toThrow("it is 12 bytes, over 4");
  });
});

describe("FolderListings", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A folder holding `a.h` and `sub/`, last changed a minute ago (settled). */
  function folder(): string {
    const dir = mkdtempSync(join(tmpdir(), "lsp-listings-"));
    dirs.push(dir);
    writeFileSync(join(dir, "a.h"), "int a;\n");
    mkdirSync(join(dir, "sub"));
    settle(dir);
    return dir;
  }
  const settle = (path: string): void => {
    const past = Date.now() / 1000 - 60;
    utimesSync(path, past, past);
    pastRacyMargin();
  };

  it("reuses the listing of an unchanged folder, and lists it again once a file is added, removed or replaced", () => {
    const dir = folder();
    const listings = new FolderListings();
    const first = listings.get(dir)!;
    expect([...first.names].sort()).toEqual(["a.h", "sub"]);
    expect([...first.regular]).toEqual(["a.h"]);
    expect(listings.get(dir)).toBe(first);
    writeFileSync(join(dir, "b.h"), "int b;\n");
    expect([...listings.get(dir)!.names].sort()).toEqual(["a.h", "b.h", "sub"]);
    settle(dir);
    unlinkSync(join(dir, "a.h"));
    expect([...listings.get(dir)!.names].sort()).toEqual(["b.h", "sub"]);
    // b.h made a symlink: no longer a regular file, though its folder's times were set back.
    settle(dir);
    const kept = listings.get(dir)!;
    unlinkSync(join(dir, "b.h"));
    symlinkSync(join(dir, "sub"), join(dir, "b.h"));
    settle(dir);
    const relisted = listings.get(dir)!;
    expect(relisted).not.toBe(kept);
    expect([...relisted.regular]).toEqual([]);
  });

  it("never reuses a listing taken just after an entry was added and the folder's mtime put back (tar x)", () => {
    const dir = folder();
    const listings = new FolderListings();
    writeFileSync(join(dir, "b.h"), "");
    const past = Date.now() / 1000 - 60;
    utimesSync(dir, past, past);
    const first = listings.get(dir)!;
    expect(listings.get(dir)).not.toBe(first);
  });

  it("never reuses a listing of a folder changed just before it", () => {
    const dir = folder();
    writeFileSync(join(dir, "new.h"), "");
    const listings = new FolderListings();
    const first = listings.get(dir)!;
    expect(listings.get(dir)).not.toBe(first);
  });

  it("lists nothing for a missing folder or a file, and is bounded", () => {
    const dir = folder();
    const listings = new FolderListings(1);
    expect(listings.get(join(dir, "missing"))!.names.size).toBe(0);
    expect(listings.get(join(dir, "a.h"))!.names.size).toBe(0);
    listings.startWalk();
    listings.startWalk();
    const kept = listings.get(dir)!;
    expect(listings.get(dir)).toBe(kept);
    listings.startWalk();
    // Used in the walk before: kept, the new listing is not.
    listings.get(join(dir, "sub"));
    expect(listings.get(dir)).toBe(kept);
    listings.startWalk();
    listings.startWalk();
    listings.get(join(dir, "sub"));
    expect(listings.get(dir)).not.toBe(kept);
  });

  it("keeps at most its bound of names in all, dropping the least recently used folders first", () => {
    const dir = folder();
    const subs = Array.from({ length: 3 }, (_, i) => join(dir, `d${i}`));
    for (const [i, sub] of subs.entries()) {
      mkdirSync(sub);
      for (let n = 0; n < 4 + i; n++) writeFileSync(join(sub, `f${n}.h`), "");
      settle(sub);
    }
    settle(dir);
    // Room for 100 folders but 10 names: d0 (4 names) and d1 (5) fit, d2 (6) pushes d0 out.
    const listings = new FolderListings(100, 10);
    listings.startWalk();
    const d0 = listings.get(subs[0]!)!;
    const d1 = listings.get(subs[1]!)!;
    for (let walk = 0; walk < 2; walk++) listings.startWalk();
    expect(listings.get(subs[1]!)).toBe(d1);
    expect(listings.get(subs[2]!)!.names.size).toBe(6);
    expect(listings.get(subs[1]!)).toBe(d1);
    // Before, only the folder count bounded them: d0 stayed kept beside the others.
    expect(listings.get(subs[0]!)).not.toBe(d0);
    // A folder of more names than the whole bound is listed, never kept.
    const small = new FolderListings(100, 3);
    const big = small.get(subs[0]!)!;
    expect(big.names.size).toBe(4);
    expect(small.get(subs[0]!)).not.toBe(big);
  });

  it("looks for a missing folder with one stat, not a stat and a listing", () => {
    const dir = folder();
    const listings = new FolderListings();
    const calls = { stat: 0, readdir: 0 };
    const { statSync, readdirSync } = fs;
    Object.assign(fs, {
      statSync: (...args: Parameters<typeof statSync>) => (calls.stat++, statSync(...args)),
      readdirSync: (...args: Parameters<typeof readdirSync>) => (calls.readdir++, readdirSync(...args)),
    });
    syncBuiltinESMExports();
    try {
      expect(listings.get(join(dir, "missing", "sys"))!.names.size).toBe(0);
      expect(listings.get(join(dir, "a.h", "sys"))!.names.size).toBe(0);
      expect(listings.get(join(dir, "a.h"))!.names.size).toBe(0);
    } finally {
      Object.assign(fs, { statSync, readdirSync });
      syncBuiltinESMExports();
    }
    expect(calls).toEqual({ stat: 3, readdir: 0 });
  });

  it("keeps the folders a walk listed first when the walk lists more than it keeps (none listed again each walk)", () => {
    const dir = folder();
    const subs = Array.from({ length: 6 }, (_, i) => join(dir, `d${i}`));
    for (const sub of subs) mkdirSync(sub);
    for (const path of [...subs, dir]) settle(path);
    const listings = new FolderListings(4);
    listings.startWalk();
    const first = subs.map((sub) => listings.get(sub));
    for (let walk = 0; walk < 4; walk++) {
      listings.startWalk();
      // The walks of a flush alternate: of what files include, and of what reaches a changed file.
      const order = walk % 2 === 0 ? [...subs.keys()] : [...subs.keys()].reverse();
      const again = order.map((i) => listings.get(subs[i]!) === first[i]);
      // Before: kept in the order first listed, each walk of 6 folders dropped every one of them
      // before it came round again.
      expect(again.filter(Boolean).length, `walk ${walk}`).toBe(4);
    }
  });
});
