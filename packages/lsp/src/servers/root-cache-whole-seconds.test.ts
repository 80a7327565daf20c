import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RootCache } from "./root-cache.js";

/**
 * A filesystem keeping whole seconds (ext4 with 128-byte inodes, ext3, HFS+): every folder's
 * times are `stamp` (ms) while it is set, as for changes all made within the same second.
 */
let stamp: number | undefined;
vi.mock("node:fs", async (original) => {
  const actual = await original<typeof fs>();
  const statSync = ((path: fs.PathLike, options?: fs.StatSyncOptions) => {
    const stats = actual.statSync(path, options);
    if (stamp === undefined || !stats || (options as { bigint?: boolean } | undefined)?.bigint) return stats;
    return Object.assign(stats, { mtimeMs: stamp, ctimeMs: stamp });
  }) as typeof fs.statSync;
  return { ...actual, statSync, default: { ...actual, statSync } };
});

afterEach(() => {
  stamp = undefined;
});

describe("RootCache on a filesystem keeping whole seconds", () => {
  it("sees a marker created within the second its folder was probed in, after the 100 ms margin", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "lsp-root-seconds-")));
    try {
      fs.mkdirSync(join(dir, "app"));
      fs.writeFileSync(join(dir, "package.json"), "{}");
      const file = join(dir, "app", "a.ts");
      const markers = { markers: ["tsconfig.json", "package.json"] };
      const roots = new RootCache();
      // The probe comes more than 100 ms after the second its folder last changed in began.
      stamp = Math.floor((Date.now() - 500) / 1000) * 1000;
      expect(roots.find(file, markers, dir)?.root).toBe(dir);
      // Made in the same second: the folder's times do not move.
      fs.writeFileSync(join(dir, "app", "tsconfig.json"), "{}");
      expect(roots.find(file, markers, dir)).toEqual({ root: join(dir, "app"), marker: "tsconfig.json" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
