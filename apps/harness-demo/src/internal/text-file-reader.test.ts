import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { blockLines, TextFileReader } from "./text-file-reader.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "text-file-reader-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function readAll(
  content: string,
  maxLineBytes: number,
): Promise<{ lines: string[]; cut: (number | undefined)[] }> {
  await writeFile(join(dir, "f.txt"), content);
  const reader = await TextFileReader.open(join(dir, "f.txt"));
  const lines: string[] = [];
  const cut: (number | undefined)[] = [];
  try {
    for await (const block of reader.blocks(maxLineBytes)) {
      const text = block.bytes.toString("utf8");
      for (const line of block.cutFrom === undefined ? blockLines(text) : [text]) {
        lines.push(line);
        cut.push(block.cutFrom);
      }
    }
  } finally {
    await reader.close();
  }
  return { lines, cut };
}

describe("TextFileReader", () => {
  it("yields every line once across reads of 1 MiB, CR before LF dropped, a last line without a line end kept", async () => {
    const lines = Array.from({ length: 60_000 }, (_, index) => `line ${index} ${"é".repeat(index % 50)}`);
    const { lines: read } = await readAll(`${lines.join("\r\n")}\r\nlast`, 1 << 20);
    expect(read).toEqual([...lines, "last"]);
  });

  it("cuts a line that runs on past maxLineBytes on a character boundary, giving its length", async () => {
    const long = "é".repeat(1_500_000);
    const { lines, cut } = await readAll(`a\n${long}\nb\n`, 1 << 20);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("a");
    expect(lines[1]).toBe("é".repeat(1 << 19));
    expect(cut[1]).toBe(Buffer.byteLength(long));
    expect(lines[2]).toBe("b");
  });

  it("stops where stopAt says, and says whether anything was left unread", async () => {
    await writeFile(join(dir, "f.txt"), "x\n".repeat(1_500_000));
    const reader = await TextFileReader.open(join(dir, "f.txt"));
    let blocks = 0;
    for await (const _ of reader.blocks(1 << 20, { stopAt: (position) => position > 0 })) blocks++;
    expect(blocks).toBe(1);
    expect(reader.stoppedEarly).toBe(true);
    for await (const _ of reader.blocks(1 << 20, { stopAt: () => false })) blocks++;
    expect(reader.stoppedEarly).toBe(false);
    await reader.close();
  });

  it("refuses a folder like readRegularFile", async () => {
    await expect(TextFileReader.open(dir)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
