import { describe, expect, it } from "vitest";
import { trackTrees } from "../__fixtures__/tree-tracker.js";
import { createStructuralParser } from "./structural-parser.js";

/** A stand-in for the sha256 of a file's bytes, the cache's key with the path. */
const stamp = (size: number, version = 1) => `sha256-of-${size}-bytes-v${version}`;

describe("StructuralParser tree cache", () => {
  it("hands back the cached tree while the content hash is unchanged, and parses again after", async () => {
    const parser = createStructuralParser({ workers: 0 });
    try {
      const spec = parser.spec("python");
      const first = await parser.fileTree("/a.py", spec, "x = 1\n", stamp(6));
      const again = await parser.fileTree("/a.py", spec, "x = 1\n", stamp(6));
      expect(again.tree).toBe(first.tree);
      first.release();
      again.release();
      const changed = await parser.fileTree("/a.py", spec, "y = 22\n", stamp(7, 2));
      expect(changed.tree.rootNode.text).toBe("y = 22\n");
      expect(parser.cachedFileTree("/a.py", spec, stamp(6))).toBeUndefined();
      expect(parser.cachedTrees).toBe(1);
      changed.release();
    } finally {
      parser.dispose();
    }
  });

  it("keeps an evicted tree alive until its lease is released", async () => {
    const parser = createStructuralParser({ workers: 0, maxCachedTrees: 1 });
    try {
      const spec = parser.spec("python");
      const held = await parser.fileTree("/a.py", spec, "held = 1\n", stamp(9));
      const other = await parser.fileTree("/b.py", spec, "other = 2\n", stamp(10));
      expect(parser.cachedTrees).toBe(1);
      expect(parser.cachedFileTree("/a.py", spec, stamp(9))).toBeUndefined();
      // Evicted from the cache, but still in use: not freed under the caller.
      expect(held.tree.rootNode.text).toBe("held = 1\n");
      held.release();
      held.release();
      other.release();
    } finally {
      parser.dispose();
    }
  });

  it("bounds the cache by the characters parsed, and keeps nothing at maxCachedTrees 0", async () => {
    const bounded = createStructuralParser({ workers: 0, maxCachedChars: 25 });
    const none = createStructuralParser({ workers: 0, maxCachedTrees: 0 });
    try {
      const spec = bounded.spec("python");
      for (const name of ["a", "b", "c"]) {
        const lease = await bounded.fileTree(`/${name}.py`, spec, `${name}_value = 1\n`, stamp(12));
        lease.release();
      }
      // 12 characters each: two fit in 25, the oldest went.
      expect(bounded.cachedTrees).toBe(2);
      expect(bounded.cachedFileTree("/a.py", spec, stamp(12))).toBeUndefined();
      const kept = bounded.cachedFileTree("/c.py", spec, stamp(12));
      expect(kept?.tree.rootNode.text).toBe("c_value = 1\n");
      kept?.release();

      const lease = await none.fileTree("/a.py", spec, "x = 1\n", stamp(6));
      expect(lease.tree.rootNode.type).toBe("module");
      lease.release();
      expect(none.cachedTrees).toBe(0);
    } finally {
      bounded.dispose();
      none.dispose();
    }
  });

  it("caches a tree of included ranges under those ranges", async () => {
    const parser = createStructuralParser({ workers: 0 });
    try {
      const spec = parser.spec("python");
      const text = "a = 1\nb = 2\n";
      const ranges = [
        {
          startIndex: 6,
          endIndex: 12,
          startPosition: { row: 1, column: 0 },
          endPosition: { row: 2, column: 0 },
        },
      ];
      const lease = await parser.rangesTree("/r.py", spec, text, ranges, stamp(12));
      expect(lease.tree.rootNode.namedChildren.map((node) => node?.text)).toEqual(["b = 2"]);
      const again = await parser.rangesTree("/r.py", spec, text, ranges, stamp(12));
      expect(again.tree).toBe(lease.tree);
      expect(parser.cachedFileTree("/r.py", spec, stamp(12))).toBeUndefined();
      lease.release();
      again.release();
    } finally {
      parser.dispose();
    }
  });

  it("frees every tree it parsed, also when two calls parse the same file at once", async () => {
    const parser = createStructuralParser({ workers: 0 });
    const spec = parser.spec("python");
    await parser.parser(spec);
    const trees = trackTrees();
    try {
      // Both miss the cache and parse: the second to finish replaces the first's entry.
      const leases = await Promise.all([
        parser.fileTree("/a.py", spec, "x = 1\n", stamp(6)),
        parser.fileTree("/a.py", spec, "x = 1\n", stamp(6)),
      ]);
      expect(trees.parsed()).toHaveLength(2);
      expect(parser.cachedTrees).toBe(1);
      for (const lease of leases) lease.release();
      // One is cached, the replaced one freed once its lease was released.
      expect(trees.live()).toHaveLength(1);
      parser.dispose();
      expect(trees.live()).toHaveLength(0);
    } finally {
      trees.stop();
      parser.dispose();
    }
  });
});
