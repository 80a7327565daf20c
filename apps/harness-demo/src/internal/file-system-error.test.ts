import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeWriteFailure, readFailure } from "./file-system-error.js";

const errno = (code: string) =>
  Object.assign(new Error(`${code}: failed, open '/x/.f.txt.44dc9ae62c6e.tmp'`), { code });

describe("describeWriteFailure", () => {
  it("tells permissions, a full disk and a file in the way in the agent's terms, never the temporary name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fs-error-"));
    try {
      await writeFile(join(dir, "package.json"), "{}\n");
      const denied = await describeWriteFailure(errno("EPERM"), join(dir, "ro/f.txt"), dir);
      expect(denied?.code).toBe("PERMISSION_DENIED");
      expect(denied?.message).toBe(
        "could not write ro/f.txt: permission denied (the file or its folder is not writable, or is immutable); nothing was changed. Check the permissions (shell: ls -ld on the folder, lsattr) or write elsewhere",
      );
      const full = await describeWriteFailure(errno("ENOSPC"), join(dir, "big.txt"), dir);
      expect(full?.message).toBe(
        "could not write big.txt: no space left on the device; nothing was changed. Free disk space (shell: df -h) and try again",
      );
      const parent = await describeWriteFailure(errno("EEXIST"), join(dir, "package.json/x.txt"), dir);
      expect(parent?.code).toBe("PARENT_IS_A_FILE");
      expect(parent?.message).toContain("package.json is a file, not a folder");
      expect(await describeWriteFailure(errno("EIO"), join(dir, "f.txt"), dir)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("readFailure", () => {
  it("calls only a missing file missing; other read errors name the path and the code", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fs-error-"));
    try {
      const path = join(dir, "f.txt");
      const missing = await readFailure(errno("ENOENT"), path, dir, "edit");
      expect(missing.code).toBe("FILE_NOT_FOUND");
      expect(missing.message).toBe("f.txt does not exist; to create it use write");
      for (const code of ["EMFILE", "EIO", "ELOOP"]) {
        const failure = await readFailure(errno(code), path, dir, "edit");
        expect(failure.code).toBe("READ_FAILED");
        expect(failure.message).toContain(`could not read f.txt (${code})`);
        expect(failure.message).toContain("nothing was changed");
        expect(failure.message).not.toContain("does not exist");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
