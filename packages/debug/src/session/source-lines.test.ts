import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forgetSourceLines, largestSourceBytes, sourceLine } from "./source-lines.js";

describe("sourceLine", () => {
  const dir = mkdtempSync(join(tmpdir(), "debug-source-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives a line of a source file, trimmed and capped", () => {
    writeFileSync(join(dir, "app.py"), `x = 1\n    y = x + 1\r\n${"z".repeat(300)}\n`);
    forgetSourceLines();
    expect(sourceLine(join(dir, "app.py"), 2)).toBe("y = x + 1");
    expect(sourceLine(join(dir, "app.py"), 3)).toBe("z".repeat(200));
    expect(sourceLine(join(dir, "app.py"), 9)).toBeUndefined();
    expect(sourceLine(join(dir, "missing.py"), 1)).toBeUndefined();
  });

  it("does not block on a FIFO (a synchronous read of one would stop every run in the process)", () => {
    // Nothing ever writes to it: opened the blocking way, the read would never return.
    execFileSync("mkfifo", [join(dir, "pipe.py")]);
    expect(sourceLine(join(dir, "pipe.py"), 1)).toBeUndefined();
  });

  it("does not read a file larger than a source file, nor a folder", () => {
    writeFileSync(join(dir, "huge.py"), Buffer.alloc(largestSourceBytes + 1, 0x61));
    expect(sourceLine(join(dir, "huge.py"), 1)).toBeUndefined();
    expect(sourceLine(dir, 1)).toBeUndefined();
  });
});
