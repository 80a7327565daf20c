import * as fs from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileTexts } from "../files/file-texts.js";
import { tempTree } from "../test-support/fixtures.js";
import { compileFlagFacts } from "./compile-flags.js";

/**
 * A filesystem keeping whole seconds (ext4 with 128-byte inodes, ext3, HFS+): every file's times
 * are those of `stamp` while it is set, as for writes all made within the same second.
 */
let stamp: bigint | undefined;
vi.mock("node:fs", async (original) => {
  const actual = await original<typeof fs>();
  const statSync = ((path: fs.PathLike, options?: fs.StatSyncOptions) => {
    const stats = actual.statSync(path, options);
    if (stamp === undefined || !stats || !(options as { bigint?: boolean } | undefined)?.bigint) return stats;
    return Object.assign(stats, { mtimeNs: stamp, ctimeNs: stamp });
  }) as typeof fs.statSync;
  return { ...actual, statSync, default: { ...actual, statSync } };
});

afterEach(() => {
  stamp = undefined;
});

/** Half a second to a second and a half ago, on a whole second (ns): a write of that second. */
const wholeSecondAgo = (): bigint => BigInt(Math.floor((Date.now() - 500) / 1000)) * 1_000_000_000n;

describe("on a filesystem keeping whole seconds", () => {
  it("compileFlagFacts reads again a database rewritten (same size) within the second it was read in", () => {
    const { dir, remove } = tempTree("compile-flags-seconds", {});
    try {
      const database = join(dir, "compile_commands.json");
      const entry = (include: string) =>
        JSON.stringify([{ directory: dir, file: "a.c", arguments: ["cc", `-I${include}`, "-c", "a.c"] }]);
      stamp = wholeSecondAgo();
      fs.writeFileSync(database, entry("one"));
      expect(compileFlagFacts(dir, []).includeDirs).toEqual([join(dir, "one")]);
      fs.writeFileSync(database, entry("two"));
      expect(compileFlagFacts(dir, []).includeDirs).toEqual([join(dir, "two")]);
    } finally {
      remove();
    }
  });

  it("FileTexts reads again a file rewritten (same size) within the second it was read in", () => {
    const { dir, remove } = tempTree("file-texts-seconds", { "a.h": "int one;\n" });
    try {
      const texts = new FileTexts();
      stamp = wholeSecondAgo();
      expect(texts.read(join(dir, "a.h")).text).toBe("int one;\n");
      fs.writeFileSync(join(dir, "a.h"), "int two;\n");
      expect(texts.read(join(dir, "a.h")).text).toBe("int two;\n");
    } finally {
      remove();
    }
  });
});
