import type * as Fs from "node:fs";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { searchedLine } from "../tools/ast-grep-tool.js";
import { searchFiles } from "./search.js";

// A fake: these tests run as root here, which reads a file whatever its mode, so a file the
// search cannot open is one whose open fails with EACCES (as for a user without the permission).
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof Fs>();
  return {
    ...actual,
    openSync: (path: Fs.PathLike, ...rest: unknown[]) => {
      if (String(path).endsWith("locked.py"))
        throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), {
          code: "EACCES",
        });
      return (actual.openSync as (...args: unknown[]) => number)(path, ...rest);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), "structural-unreadable-"));
const parser = createStructuralParser({ workers: 0 });
afterAll(() => {
  parser.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function search(target: string, maxMatches?: number) {
  const spec = parser.spec("python");
  const pattern = await parser.compile(spec, "foo($A)");
  const outcome = await searchFiles({
    parser,
    spec,
    pattern,
    workingDirectory: dir,
    target,
    ...(maxMatches === undefined ? {} : { maxMatches }),
  });
  return { outcome, line: searchedLine(outcome, { spec, target, isFile: false }) };
}

describe("a file the search cannot read", () => {
  it("is counted and named, so the files searched and skipped add up to those considered", async () => {
    mkdirSync(join(dir, "py"));
    writeFileSync(join(dir, "py/a.py"), "bar(1)\n");
    writeFileSync(join(dir, "py/b_locked.py"), "foo(1)\n");
    writeFileSync(join(dir, "py/c.py"), "foo(2)\nfoo(3)\n");
    writeFileSync(join(dir, "py/d_locked.py"), "foo(4)\n");
    const { outcome, line } = await search(join(dir, "py"));
    expect(outcome).toMatchObject({
      considered: 4,
      searched: 2,
      unreadable: 2,
      unreadableExample: { path: "py/b_locked.py", reason: "permission denied" },
    });
    expect(line).toBe(
      "searched 2 python files; skipped 2 that could not be read (e.g. py/b_locked.py: permission denied)",
    );
  });

  it("is counted among the files reached when a bounded count stops after it", async () => {
    // Stops at c.py, the third file: a.py, the locked one and c.py were reached.
    const { outcome, line } = await search(join(dir, "py"), 1);
    expect(outcome.stopped).toBe("max-matches");
    expect(line).toBe(
      "the count stopped after 3 of 4 python files; skipped 1 that could not be read (py/b_locked.py: permission denied)",
    );
  });
});
