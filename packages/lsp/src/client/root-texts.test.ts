import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
import { RootTexts } from "./root-texts.js";

describe("RootTexts", () => {
  it("keeps a text until told the file changed, and does not scan files over 1 MB", () => {
    const tree = tempTree("root-texts", { "a.c": "int a;\n", "big.c": "x".repeat(1_000_001) });
    try {
      const texts = new RootTexts();
      const a = join(tree.dir, "a.c");
      expect(texts.text(a)).toBe("int a;\n");
      writeFileSync(a, "int b;\n");
      // Unchanged until the folder watch says so: no stat per scan.
      expect(texts.text(a)).toBe("int a;\n");
      texts.forget(a);
      expect(texts.text(a)).toBe("int b;\n");
      expect(texts.text(join(tree.dir, "big.c"))).toBeUndefined();
      expect(texts.text(join(tree.dir, "gone.c"))).toBeUndefined();
    } finally {
      tree.remove();
    }
  });
});
