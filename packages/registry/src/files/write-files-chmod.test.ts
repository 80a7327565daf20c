import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type * as FsPromises from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { writeFiles } from "./write-files.js";

// A file system without modes (CIFS, some FUSE mounts) refuses chmod: injected here, since no
// such file system is mounted on the test machine.
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    chmod: vi.fn(() =>
      Promise.reject(Object.assign(new Error("operation not permitted (injected)"), { code: "EPERM" })),
    ),
  };
});

describe("writeFiles where chmod is refused", () => {
  const dir = mkdtempSync(join(tmpdir(), "write-files-chmod-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("still writes a file whose mode it keeps", async () => {
    writeFileSync(join(dir, "a.txt"), "a\n");
    chmodSync(join(dir, "a.txt"), 0o644);
    const outcome = await writeFiles([{ path: join(dir, "a.txt"), expected: "a\n", content: "A\n" }]);
    expect(outcome).toEqual({ ok: true, changed: [join(dir, "a.txt")] });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A\n");
  });
});
