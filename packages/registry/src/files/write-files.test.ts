import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRegularFile, readRegularFileSync } from "./read-regular-file.js";
import { nodeFileOperations, temporaryName, writeFiles, type FileOperations } from "./write-files.js";

describe("writeFiles", () => {
  let dir: string;
  const at = (name: string) => join(dir, name);
  const read = (name: string) => readFileSync(at(name), "utf8");
  /** Every file under the folder, temporary files included. */
  const listing = () => readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "write-files-"));
    writeFileSync(at("a.txt"), "a\n");
    writeFileSync(at("b.txt"), "b\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes, creates (with its folders) and deletes, keeping each file's mode", async () => {
    chmodSync(at("a.txt"), 0o750);
    const outcome = await writeFiles([
      { path: at("a.txt"), expected: "a\n", content: "A\n" },
      { path: at("new/deep/c.txt"), expected: null, content: "c\n" },
      {
        path: at("b.txt"),
        expected: { sha256: createHash("sha256").update("b\n").digest("hex") },
        content: null,
      },
    ]);
    expect(outcome).toEqual({ ok: true, changed: [at("a.txt"), at("new/deep/c.txt"), at("b.txt")] });
    expect(read("a.txt")).toBe("A\n");
    expect(statSync(at("a.txt")).mode & 0o777).toBe(0o750);
    expect(read("new/deep/c.txt")).toBe("c\n");
    expect(existsSync(at("b.txt"))).toBe(false);
    expect(listing()).toEqual(["a.txt", "new", "new/deep", "new/deep/c.txt"]);
  });

  it("writes and replaces a file whose name takes the whole 255 bytes a name may have", async () => {
    for (const name of ["n".repeat(251) + ".txt", "é".repeat(125) + ".txt", "😀".repeat(62) + ".txt"]) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(await writeFiles([{ path: at(name), expected: null, content: "1\n" }])).toEqual({
        ok: true,
        changed: [at(name)],
      });
      expect((await writeFiles([{ path: at(name), expected: "1\n", content: "2\n" }])).ok).toBe(true);
      expect(read(name)).toBe("2\n");
    }
    expect(listing()).toHaveLength(5);
  });

  it("names a temporary file within 255 bytes, cutting the name at a character boundary", () => {
    for (const name of ["a.txt", "n".repeat(255), "😀".repeat(63)]) {
      const temporary = temporaryName(name);
      expect(Buffer.byteLength(temporary)).toBeLessThanOrEqual(255);
      expect(temporary).toMatch(/^\.[^]*\.[0-9a-f]{12}\.tmp$/);
      expect(temporary).not.toMatch(/[\uD800-\uDBFF]\./);
    }
    expect(temporaryName("a.txt")).toMatch(/^\.a\.txt\.[0-9a-f]{12}\.tmp$/);
  });

  it("writes through a symlink to the file it points at", async () => {
    symlinkSync(at("a.txt"), at("link.txt"));
    expect((await writeFiles([{ path: at("link.txt"), expected: "a\n", content: "linked\n" }])).ok).toBe(
      true,
    );
    expect(read("a.txt")).toBe("linked\n");
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt", "link.txt"]);
  });

  it("writes nothing when any file no longer holds what was expected, and names each", async () => {
    writeFileSync(at("exists.txt"), "surprise\n");
    const outcome = await writeFiles([
      { path: at("a.txt"), label: "a.txt", expected: "a\n", content: "A\n" },
      { path: at("b.txt"), label: "b.txt", expected: "old b\n", content: "B\n" },
      { path: at("gone.txt"), label: "gone.txt", expected: "x", content: "y" },
      { path: at("exists.txt"), label: "exists.txt", expected: null, content: "z" },
    ]);
    expect(outcome).toEqual({
      ok: false,
      moved: [
        { path: at("b.txt"), label: "b.txt", reason: "changed" },
        { path: at("gone.txt"), label: "gone.txt", reason: "deleted" },
        { path: at("exists.txt"), label: "exists.txt", reason: "created" },
      ],
    });
    expect([read("a.txt"), read("b.txt"), read("exists.txt")]).toEqual(["a\n", "b\n", "surprise\n"]);
  });

  it("takes a FIFO where a file was expected for a changed file, without blocking on it", async () => {
    // Nothing ever writes to it: a read of it would never end.
    execFileSync("mkfifo", [at("pipe.txt")]);
    const outcome = await writeFiles([
      { path: at("a.txt"), expected: "a\n", content: "A\n" },
      { path: at("pipe.txt"), expected: { sha256: "0".repeat(64) }, content: "p\n" },
    ]);
    expect(outcome).toEqual({
      ok: false,
      moved: [{ path: at("pipe.txt"), label: at("pipe.txt"), reason: "deleted" }],
    });
    expect(read("a.txt")).toBe("a\n");
  });

  it("puts every file back when a write fails midway: rewritten, created and deleted ones", async () => {
    chmodSync(at("a.txt"), 0o700);
    let renames = 0;
    const failing: FileOperations = {
      ...nodeFileOperations,
      async rename(from, to) {
        // The third rename (d.txt's) fails, after a.txt and new/c.txt were written.
        if (++renames === 3) throw new Error("disk full (injected)");
        await nodeFileOperations.rename(from, to);
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", content: "A\n" },
        { path: at("new/c.txt"), label: "new/c.txt", content: "c\n" },
        { path: at("b.txt"), label: "b.txt", content: null },
        { path: at("d.txt"), label: "d.txt", content: "d\n" },
      ],
      failing,
    );
    expect(outcome).toMatchObject({
      ok: false,
      failed: "d.txt",
      reason: "disk full (injected)",
      notRestored: [],
    });
    // b.txt's deletion comes after every write, so it never ran: two files were put back.
    expect(outcome).toMatchObject({ restored: 2 });
    expect([read("a.txt"), read("b.txt")]).toEqual(["a\n", "b\n"]);
    expect(statSync(at("a.txt")).mode & 0o777).toBe(0o700);
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });

  it("restores a deleted file when a later deletion fails", async () => {
    writeFileSync(at("c.txt"), "c\n");
    let unlinks = 0;
    const failing: FileOperations = {
      ...nodeFileOperations,
      async unlink(path) {
        if (++unlinks === 2) throw new Error("busy (injected)");
        await nodeFileOperations.unlink(path);
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("b.txt"), label: "b.txt", content: null },
        { path: at("c.txt"), label: "c.txt", content: null },
      ],
      failing,
    );
    expect(outcome).toMatchObject({ ok: false, failed: "c.txt", restored: 1, notRestored: [] });
    expect([read("b.txt"), read("c.txt")]).toEqual(["b\n", "c\n"]);
  });

  it("says which files could not be put back", async () => {
    let renames = 0;
    const failing: FileOperations = {
      ...nodeFileOperations,
      async rename(from, to) {
        // a.txt is written, b.txt fails, then putting a.txt back fails too.
        if (++renames >= 2) throw new Error("read-only file system (injected)");
        await nodeFileOperations.rename(from, to);
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", content: "A\n" },
        { path: at("b.txt"), label: "b.txt", content: "B\n" },
      ],
      failing,
    );
    expect(outcome).toMatchObject({ ok: false, failed: "b.txt", restored: 0, notRestored: ["a.txt"] });
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });
});

describe("readRegularFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "read-regular-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a file, and refuses a FIFO, a folder or a file over the bound without blocking", async () => {
    writeFileSync(join(dir, "a.txt"), "hello\n");
    execFileSync("mkfifo", [join(dir, "pipe")]);
    expect((await readRegularFile(join(dir, "a.txt"))).toString()).toBe("hello\n");
    await expect(readRegularFile(join(dir, "pipe"))).rejects.toMatchObject({
      code: "EINVAL",
      message: `${join(dir, "pipe")} is a FIFO, socket or device, not a regular file`,
    });
    await expect(readRegularFile(dir)).rejects.toMatchObject({ code: "EISDIR" });
    await expect(readRegularFile(join(dir, "a.txt"), 3)).rejects.toMatchObject({ code: "EFBIG" });
    await expect(readRegularFile(join(dir, "missing"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("readRegularFileSync reads and refuses the same, with the same errors", () => {
    writeFileSync(join(dir, "b.txt"), "hello\n");
    execFileSync("mkfifo", [join(dir, "pipe-sync")]);
    expect(readRegularFileSync(join(dir, "b.txt")).toString()).toBe("hello\n");
    expect(() => readRegularFileSync(join(dir, "pipe-sync"))).toThrow(
      expect.objectContaining({
        code: "EINVAL",
        message: `${join(dir, "pipe-sync")} is a FIFO, socket or device, not a regular file`,
      }),
    );
    expect(() => readRegularFileSync(dir)).toThrow(expect.objectContaining({ code: "EISDIR" }));
    expect(() => readRegularFileSync(join(dir, "b.txt"), 3)).toThrow(
      expect.objectContaining({ code: "EFBIG", size: 6 }),
    );
    expect(() => readRegularFileSync(join(dir, "missing"))).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });
});
