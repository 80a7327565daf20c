import { mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRun } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { withFileLocks } from "./file-locks.js";

describe("withFileLocks", () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = "";
  });

  it("takes the lock of one file in the order the calls arrive, also when the first resolves its paths slower", async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "file-locks-")));
    await writeFile(join(dir, "c.txt"), "");
    const run = createRun({ workingDirectory: dir });
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`${name} end`);
    };
    // The first call also locks many files that are not there (two lookups each): it resolves last.
    const many = [
      join(dir, "c.txt"),
      ...Array.from({ length: 300 }, (_, index) => join(dir, "new", `${index}.txt`)),
    ];
    const first = withFileLocks(run, many, work("first"));
    const second = withFileLocks(run, [join(dir, "c.txt")], work("second"));
    await Promise.all([first, second]);
    expect(order).toEqual(["first start", "first end", "second start", "second end"]);
    await run.dispose();
  });

  it("shares one lock between two spellings of a file through a symlinked folder", async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "file-locks-")));
    await writeFile(join(dir, "c.txt"), "");
    await symlink(dir, join(dir, "alias"));
    const run = createRun({ workingDirectory: dir });
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`${name} end`);
    };
    await Promise.all([
      withFileLocks(run, [join(dir, "c.txt")], work("real")),
      withFileLocks(run, [join(dir, "alias", "c.txt")], work("alias")),
    ]);
    expect(order).toEqual(["real start", "real end", "alias start", "alias end"]);
    await run.dispose();
  });
});
