import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileTexts, readTextFile } from "./file-texts.js";

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
