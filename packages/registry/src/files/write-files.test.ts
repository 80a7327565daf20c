import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readRegularFile, readRegularFileSync } from "./read-regular-file.js";
import { nodeFileOperations, type FileOperations } from "./file-operations.js";
import { temporaryName } from "./temporary-name.js";
import { writeFiles } from "./write-files.js";
import { journalFolder } from "./write-journal.js";

/**
 * The real file system, except that the calls of `operation` for which `fails` (given the call's
 * number, from 1) is true throw `message`.
 */
function failingOn(
  operation: "mkdir" | "rename" | "unlink",
  fails: (call: number) => boolean,
  message: string,
): FileOperations {
  let calls = 0;
  const real = nodeFileOperations[operation] as (...args: string[]) => Promise<void>;
  return {
    ...nodeFileOperations,
    [operation]: async (...args: string[]) => {
      if (fails(++calls)) throw new Error(message);
      await real(...args);
    },
  };
}

/** `path` relative to this process's working folder, as a caller may name a file. */
function relativeFromHere(path: string): string {
  return relative(process.cwd(), path);
}

describe("writeFiles", () => {
  // The journals of these sets (see recover-writes.test.ts) go to a temporary folder of their own.
  let journalRoot: string;
  let previousTmp: string | undefined;
  beforeAll(() => {
    journalRoot = mkdtempSync(join(tmpdir(), "write-files-journals-"));
    previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = journalRoot;
  });
  afterAll(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(journalRoot, { recursive: true, force: true });
  });
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

  it("names a temporary file within 255 bytes, cutting a long name at a character boundary", () => {
    const names = [
      "a.txt",
      "n".repeat(240),
      "n".repeat(255),
      "é".repeat(127),
      `${"x".repeat(250)}.txt`,
      "😀".repeat(63),
      `a${"😀".repeat(62)}`,
    ];
    for (const name of names) {
      const temporary = temporaryName(name);
      expect(Buffer.byteLength(temporary), name).toBeLessThanOrEqual(255);
      expect(temporary, name).toMatch(/^\.[^]+\.[0-9a-f]{12}\.tmp$/);
      // A split surrogate pair would not survive the round trip through UTF-8.
      expect(Buffer.from(temporary).toString(), name).toBe(temporary);
    }
    expect(temporaryName("a.txt")).toMatch(/^\.a\.txt\.[0-9a-f]{12}\.tmp$/);
    // Cut as late as the room allows: an ASCII name fills the 255 bytes.
    expect(Buffer.byteLength(temporaryName("n".repeat(300)))).toBe(255);
    const cut = temporaryName("😀".repeat(63));
    expect(cut).toMatch(/^\.(😀)+~[0-9a-f]{16}\.[0-9a-f]{12}\.tmp$/);
  });

  it("gives two long names that start alike temporary names of their own (a hash of the whole name)", () => {
    const stem = (name: string) => temporaryName(name).replace(/\.[0-9a-f]{12}\.tmp$/, "");
    const one = `${"n".repeat(240)}1.txt`;
    const two = `${"n".repeat(240)}2.txt`;
    expect(stem(one)).not.toBe(stem(two));
    expect(stem(one)).toBe(stem(one));
    expect(stem(one)).toMatch(/^\.n+~[0-9a-f]{16}$/);
    // Two temporary names for the same file differ too: each has its own random part.
    expect(temporaryName("a.txt")).not.toBe(temporaryName("a.txt"));
  });

  it("keeps a replaced file's mode exactly, bits the umask would cut included", async () => {
    chmodSync(at("a.txt"), 0o666);
    chmodSync(at("b.txt"), 0o777);
    // The usual umask, whatever this process was started with: it cuts group and other writes.
    const previous = process.umask(0o022);
    let outcome;
    try {
      outcome = await writeFiles([
        { path: at("a.txt"), content: "A\n" },
        { path: at("b.txt"), content: "B\n" },
      ]);
    } finally {
      process.umask(previous);
    }
    expect(outcome.ok).toBe(true);
    expect(statSync(at("a.txt")).mode & 0o7777).toBe(0o666);
    expect(statSync(at("b.txt")).mode & 0o7777).toBe(0o777);
  });

  it("keeps the mode of a file it cannot read", async () => {
    chmodSync(at("a.txt"), 0o751);
    const unreadable: FileOperations = {
      ...nodeFileOperations,
      readFile: () =>
        Promise.reject(Object.assign(new Error("permission denied (injected)"), { code: "EACCES" })),
    };
    expect((await writeFiles([{ path: at("a.txt"), content: "A\n" }], unreadable)).ok).toBe(true);
    expect(read("a.txt")).toBe("A\n");
    expect(statSync(at("a.txt")).mode & 0o7777).toBe(0o751);
  });

  it("fails on a file where a folder should be, naming that file, and leaves nothing behind", async () => {
    const outcome = await writeFiles([
      { path: at("a.txt/deep/c.txt"), label: "a.txt/deep/c.txt", content: "c\n" },
    ]);
    expect(outcome).toMatchObject({
      ok: false,
      failed: "a.txt/deep/c.txt",
      reason: `EEXIST: file already exists, mkdir '${at("a.txt")}'`,
      restored: 0,
      notRestored: [],
    });
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });

  it("removes the folders it made when a deeper one cannot be made", async () => {
    // new/ and new/deep/ are made, new/deep/er/ fails.
    const failing = failingOn("mkdir", (call) => call === 3, "no space left (injected)");
    const outcome = await writeFiles(
      [{ path: at("new/deep/er/c.txt"), label: "new/deep/er/c.txt", content: "c\n" }],
      failing,
    );
    expect(outcome).toMatchObject({
      ok: false,
      failed: "new/deep/er/c.txt",
      reason: "no space left (injected)",
    });
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });

  it("gives a hard-linked file its own copy and says so: the other names keep the old text", async () => {
    linkSync(at("a.txt"), at("a-link.txt"));
    linkSync(at("a.txt"), at("a-link-2.txt"));
    chmodSync(at("a.txt"), 0o640);
    expect(await writeFiles([{ path: at("a.txt"), expected: "a\n", content: "A\n" }])).toEqual({
      ok: true,
      changed: [at("a.txt")],
      warnings: [
        `${at("a.txt")} had 2 other hard links; the edit gave it its own copy, and the other names keep the old text`,
      ],
    });
    expect([read("a.txt"), read("a-link.txt"), read("a-link-2.txt")]).toEqual(["A\n", "a\n", "a\n"]);
    expect([statSync(at("a.txt")).nlink, statSync(at("a-link.txt")).nlink]).toEqual([1, 2]);
    expect(statSync(at("a.txt")).mode & 0o7777).toBe(0o640);
    // Unchecked and in a set, through another name: one link left, said in the singular.
    const outcome = await writeFiles([
      { path: at("a-link.txt"), content: "x\n" },
      { path: at("b.txt"), content: "B\n" },
    ]);
    expect(outcome).toEqual({
      ok: true,
      changed: [at("a-link.txt"), at("b.txt")],
      warnings: [
        `${at("a-link.txt")} had 1 other hard link; the edit gave it its own copy, and the other names keep the old text`,
      ],
    });
    expect([read("a.txt"), read("a-link.txt"), read("a-link-2.txt")]).toEqual(["A\n", "x\n", "a\n"]);
    expect(listing()).toEqual(["a-link-2.txt", "a-link.txt", "a.txt", "b.txt"]);
  });

  it("writes one name of a hard-linked file and deletes another in one set", async () => {
    linkSync(at("a.txt"), at("a-link.txt"));
    const outcome = await writeFiles([
      { path: at("a.txt"), label: "a.txt", expected: "a\n", content: "A\n" },
      { path: at("a-link.txt"), label: "a-link.txt", expected: "a\n", content: null },
    ]);
    expect(outcome).toMatchObject({ ok: true, changed: [at("a.txt"), at("a-link.txt")] });
    expect(read("a.txt")).toBe("A\n");
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });

  it("says a hard-linked file put back after a failed set is its own copy now, with its old text", async () => {
    linkSync(at("a.txt"), at("a-link.txt"));
    const failing = failingOn("rename", (call) => call === 2, "disk full (injected)");
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", content: "A\n" },
        { path: at("b.txt"), label: "b.txt", content: "B\n" },
      ],
      failing,
    );
    expect(outcome).toMatchObject({
      ok: false,
      failed: "b.txt",
      restored: 1,
      notRestored: [],
      warnings: [
        `${at("a.txt")} had 1 other hard link; putting it back gave it its own copy with its old text`,
      ],
    });
    expect([read("a.txt"), read("a-link.txt"), read("b.txt")]).toEqual(["a\n", "a\n", "b\n"]);
    expect(listing()).toEqual(["a-link.txt", "a.txt", "b.txt"]);
  });

  it("journals a relative path under a folder it creates by its absolute path, so the set can be rolled back", async () => {
    // A journal naming a relative path is refused by recovery (it would resolve against the
    // recovering process's folder): the set would be left half written if its writer died.
    const headers: string[] = [];
    const watching: FileOperations = {
      ...nodeFileOperations,
      mkdir: async (path) => {
        for (const name of readdirSync(journalFolder()).filter((entry) => entry.endsWith(".journal"))) {
          headers.push(readFileSync(join(journalFolder(), name), "utf8").split("\n")[0]!);
        }
        await nodeFileOperations.mkdir(path);
      },
    };
    const relative = (name: string) => join(relativeFromHere(dir), name);
    const outcome = await writeFiles(
      [
        { path: relative("fresh/deep/a.txt"), expected: null, content: "a" },
        { path: relative("c.txt"), expected: null, content: "c" },
      ],
      watching,
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(readFileSync(at("fresh/deep/a.txt"), "utf8")).toBe("a");
    expect(headers.length).toBeGreaterThan(0);
    const header = JSON.parse(headers[0]!) as {
      folders: string[];
      entries: { target: string; temp: string }[];
    };
    const real = realpathSync(dir);
    expect(header.folders).toEqual([join(real, "fresh"), join(real, "fresh/deep")]);
    expect(header.entries.map((entry) => entry.target)).toEqual([
      join(real, "fresh/deep/a.txt"),
      join(real, "c.txt"),
    ]);
    expect(header.entries.every((entry) => isAbsolute(entry.temp))).toBe(true);
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
    // The third rename (d.txt's) fails, after a.txt and new/c.txt were written.
    const failing = failingOn("rename", (call) => call === 3, "disk full (injected)");
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
    const failing = failingOn("unlink", (call) => call === 2, "busy (injected)");
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
    // a.txt is written, b.txt fails, then putting a.txt back fails too.
    const failing = failingOn("rename", (call) => call >= 2, "read-only file system (injected)");
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", content: "A\n" },
        { path: at("b.txt"), label: "b.txt", content: "B\n" },
      ],
      failing,
    );
    expect(outcome).toMatchObject({ ok: false, failed: "b.txt", restored: 0, notRestored: ["a.txt"] });
    expect(listing()).toEqual(["a.txt", "b.txt"]);
    // Its bytes from before the set are kept in the journal, with a note naming it.
    const kept = readdirSync(journalFolder()).filter((name) => name.endsWith(".left.txt"));
    const note = kept.map((name) => readFileSync(join(journalFolder(), name), "utf8")).join("");
    expect(note).toContain(
      "a.txt: could not be put back after b.txt failed: read-only file system (injected)",
    );
  });

  it("does not overwrite a checked file another writer saved while the set was written", async () => {
    // An editor saves b.txt after the set was read and a.txt written, before b.txt is replaced.
    const racing: FileOperations = {
      ...nodeFileOperations,
      writeFile: async (path, data, options) => {
        await nodeFileOperations.writeFile(path, data, options);
        if (basename(path).startsWith(".b.txt.")) writeFileSync(at("b.txt"), "saved by an editor\n");
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", expected: "a\n", content: "A\n" },
        { path: at("b.txt"), label: "b.txt", expected: "b\n", content: "B\n" },
      ],
      racing,
    );
    expect(outcome).toEqual({ ok: false, moved: [{ path: at("b.txt"), label: "b.txt", reason: "changed" }] });
    expect([read("a.txt"), read("b.txt")]).toEqual(["a\n", "saved by an editor\n"]);
    expect(listing()).toEqual(["a.txt", "b.txt"]);
  });

  it("refuses two changes of one file, through a symlink or a symlinked folder, writing nothing", async () => {
    symlinkSync(at("a.txt"), at("link.txt"));
    const twice = await writeFiles([
      { path: at("a.txt"), label: "a.txt", expected: "a\n", content: "A\n" },
      { path: at("link.txt"), label: "link.txt", expected: "a\n", content: "L\n" },
    ]);
    expect(twice).toMatchObject({
      ok: false,
      failed: "link.txt",
      reason:
        "link.txt is the same file as a.txt (through a symlink or another spelling of its path); give each file once",
      restored: 0,
    });
    expect(read("a.txt")).toBe("a\n");
    // A new file named through a symlinked folder and through the folder itself.
    mkdirSync(at("real"));
    symlinkSync(at("real"), at("alias"));
    const created = await writeFiles([
      { path: at("real/new.txt"), label: "real/new.txt", expected: null, content: "1\n" },
      { path: at("alias/new.txt"), label: "alias/new.txt", expected: null, content: "2\n" },
    ]);
    expect(created).toMatchObject({ ok: false, failed: "alias/new.txt" });
    expect(existsSync(at("real/new.txt"))).toBe(false);
  });

  it("takes a file that is there but cannot be read as there, for a change that expects none", async () => {
    const unreadable: FileOperations = {
      ...nodeFileOperations,
      readFile: async (path) => {
        if (path === at("a.txt"))
          throw Object.assign(new Error("permission denied (injected)"), { code: "EACCES" });
        return nodeFileOperations.readFile(path);
      },
    };
    const outcome = await writeFiles(
      [{ path: at("a.txt"), label: "a.txt", expected: null, content: "new\n" }],
      unreadable,
    );
    expect(outcome).toEqual({ ok: false, moved: [{ path: at("a.txt"), label: "a.txt", reason: "created" }] });
    expect(read("a.txt")).toBe("a\n");
  });

  it("does not read a file that a lone unchecked change replaces or deletes (nothing to compare or put back)", async () => {
    const unread: FileOperations = {
      ...nodeFileOperations,
      readFile: () => Promise.reject(new Error("read (should not happen)")),
    };
    chmodSync(at("a.txt"), 0o640);
    expect(await writeFiles([{ path: at("a.txt"), content: "A\n" }], unread)).toEqual({
      ok: true,
      changed: [at("a.txt")],
    });
    expect(read("a.txt")).toBe("A\n");
    expect(statSync(at("a.txt")).mode & 0o7777).toBe(0o640);
    expect(await writeFiles([{ path: at("b.txt"), content: null }], unread)).toEqual({
      ok: true,
      changed: [at("b.txt")],
    });
    expect(existsSync(at("b.txt"))).toBe(false);
  });

  it("does not remove a file it could not read before writing it, when the set is undone", async () => {
    // a.txt exists but its read fails (as for a file without read permission), so there is
    // nothing to put back: it keeps the new content and is named, rather than being deleted.
    const unreadable: FileOperations = {
      ...failingOn("rename", (call) => call === 2, "disk full (injected)"),
      readFile: async (path) => {
        if (path === at("a.txt"))
          throw Object.assign(new Error("permission denied (injected)"), { code: "EACCES" });
        return nodeFileOperations.readFile(path);
      },
    };
    const outcome = await writeFiles(
      [
        { path: at("a.txt"), label: "a.txt", content: "A\n" },
        { path: at("b.txt"), label: "b.txt", content: "B\n" },
      ],
      unreadable,
    );
    expect(outcome).toMatchObject({ ok: false, failed: "b.txt", restored: 0, notRestored: ["a.txt"] });
    expect([read("a.txt"), read("b.txt")]).toEqual(["A\n", "b\n"]);
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
