import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { RootTexts } from "./root-texts.js";

describe("RootTexts", () => {
  it("reads a file again when it changed on disk, even with its size and mtime put back", () => {
    const tree = tempTree("root-texts", { "a.c": "int a;\n", "big.c": "x".repeat(1_000_001) });
    try {
      const texts = new RootTexts();
      const a = join(tree.dir, "a.c");
      expect(texts.text(a)).toBe("int a;\n");
      expect(texts.text(a)).toBe("int a;\n");
      // Same size, another mtime: read again, without any folder event.
      writeFileSync(a, "int b;\n");
      utimesSync(a, new Date(0), new Date(0));
      expect(texts.text(a)).toBe("int b;\n");
      expect(texts.text(join(tree.dir, "big.c"))).toBeUndefined();
      expect(texts.text(join(tree.dir, "gone.c"))).toBeUndefined();
    } finally {
      tree.remove();
    }
  });
});
