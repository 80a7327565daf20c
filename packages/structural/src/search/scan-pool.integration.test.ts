import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type * as Api from "../index.js";

// Worker threads run the compiled entry (dist/search/scan-worker.js), so this test drives the
// built package: run `pnpm run build` first (the package's test script order does).
const distUrl = new URL("../../dist/index.js", import.meta.url);
const built = existsSync(fileURLToPath(distUrl));
const ci = process.env.CI === "true";
const dir = mkdtempSync(join(tmpdir(), "structural-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (let index = 0; index < 24; index++) {
  mkdirSync(join(dir, `pkg${index % 3}`), { recursive: true });
  const lines = [`def f${index}(xs):`];
  for (let line = 0; line < 40; line++) lines.push(`    xs.append(${line} + ${index})`, `    g(${line})`);
  writeFileSync(join(dir, `pkg${index % 3}`, `m${index}.py`), `${lines.join("\n")}\n`);
}
writeFileSync(join(dir, "pkg0", "none.py"), "print('no literal here')\n");

describe("the worker pool", () => {
  it("is available from the built package", () => {
    if (!built && !ci) console.warn("SKIPPED: dist/ not built; the worker pool test does not run");
    expect(built || !ci).toBe(true);
  });

  it.skipIf(!built && !ci)(
    "finds exactly what the calling thread finds, on a first and a second search",
    async () => {
      const api = (await import(distUrl.href)) as typeof Api;
      const pooled = api.createStructuralParser({ workers: 2, parallelMinBytes: 0 });
      const inThread = api.createStructuralParser({ workers: 0 });
      try {
        const search = async (parser: typeof pooled, source = "$A.append($B)") => {
          const spec = parser.spec("python");
          const pattern = await parser.compile(spec, source);
          return api.searchFiles({ parser, spec, pattern, workingDirectory: dir, target: dir });
        };
        const expected = await search(inThread);
        const first = await search(pooled);
        expect(pooled.scanPool()).toBeDefined();
        const second = await search(pooled);
        const shape = (outcome: typeof first) =>
          outcome.files.map((file) => [
            file.relativePath,
            file.hash,
            file.text.length,
            file.matches.map((m) => [m.line, m.column, m.text, Object.fromEntries(m.bindings)]),
          ]);
        expect(expected.files).toHaveLength(24);
        expect(expected.parsed).toBe(24);
        expect(shape(first)).toEqual(shape(expected));
        expect(shape(second)).toEqual(shape(expected));
        expect(first.considered).toBe(25);
        // Two searches at once share the pool; each gets its own results.
        const [appends, calls] = await Promise.all([search(pooled), search(pooled, "g($X)")]);
        expect(shape(appends)).toEqual(shape(expected));
        expect(shape(calls)).toEqual(shape(await search(inThread, "g($X)")));
        expect(calls.files.flatMap((f) => f.matches)).toHaveLength(24 * 40);
      } finally {
        pooled.dispose();
        inThread.dispose();
      }
    },
  );

  it.skipIf(!built && !ci)(
    "searches a large file in shares on every worker, and parses it whole when a share cannot",
    async () => {
      const big = mkdtempSync(join(tmpdir(), "structural-shares-"));
      try {
        // Two large modules (> 256 KiB each): many classes and functions holding the literal;
        // the second has a syntax error in a statement holding it, so its plan cannot be used.
        const module = (broken: boolean): string => {
          const parts: string[] = [];
          for (let index = 0; index < 2000; index++) {
            parts.push(
              `class C${index}:\n    limit = ${index}\n\n    def add(self, item):\n        self.items.append(item)\n        return item\n`,
              `def f${index}(xs):\n    xs.append(${index})\n    return [x for x in xs if x]\n`,
            );
          }
          if (broken) parts.splice(1000, 0, "def broken(:\n    xs.append(1)\n");
          return parts.join("\n");
        };
        writeFileSync(join(big, "large.py"), module(false));
        writeFileSync(join(big, "large_broken.py"), module(true));
        const api = (await import(distUrl.href)) as typeof Api;
        const pooled = api.createStructuralParser({ workers: 2, parallelMinBytes: 0 });
        const inThread = api.createStructuralParser({ workers: 0 });
        try {
          const search = async (parser: typeof pooled) => {
            const spec = parser.spec("python");
            const pattern = await parser.compile(spec, "$A.append($B)");
            return api.searchFiles({ parser, spec, pattern, workingDirectory: big, target: big });
          };
          const shape = (outcome: Awaited<ReturnType<typeof search>>) =>
            outcome.files.map((file) => [file.relativePath, file.hash, file.text.length, file.matches]);
          const expected = await search(inThread);
          expect(expected.files.map((file) => file.matches.length)).toEqual([4000, 4001]);
          await search(pooled);
          // Once the pool runs, the large files go to both workers in shares.
          expect(shape(await search(pooled))).toEqual(shape(expected));
          // The broken one was parsed whole on this thread after a share could not use its plan.
          const spec = pooled.spec("python");
          const cachedHere = ["large.py", "large_broken.py"].map((name) => {
            const size = statSync(join(big, name)).size;
            expect(size).toBeGreaterThan(256 * 1024);
            const hash = createHash("sha256")
              .update(readFileSync(join(big, name)))
              .digest("hex");
            const lease = pooled.cachedFileTree(join(big, name), spec, hash);
            lease?.release();
            return lease !== undefined;
          });
          expect(cachedHere).toEqual([false, true]);
        } finally {
          pooled.dispose();
          inThread.dispose();
        }
      } finally {
        rmSync(big, { recursive: true, force: true });
      }
    },
    // Parses a large file several times over: past 20 s on a 2-core machine under load.
    90_000,
  );

  it.skipIf(!built && !ci)(
    "parses a file again on its worker when its bytes changed but its size and mtime did not",
    async () => {
      const api = (await import(distUrl.href)) as typeof Api;
      const pooled = api.createStructuralParser({ workers: 2, parallelMinBytes: 0 });
      const same = mkdtempSync(join(tmpdir(), "structural-stale-"));
      try {
        const path = join(same, "a.ts");
        const search = async () => {
          const spec = pooled.spec("typescript");
          const pattern = await pooled.compile(spec, "foo($A)");
          const outcome = await api.searchFiles({
            parser: pooled,
            spec,
            pattern,
            workingDirectory: same,
            target: path,
          });
          return outcome.files.flatMap((file) => file.matches.map((match) => match.text));
        };
        writeFileSync(path, "foo(a);\nbar(bbbb);\n");
        utimesSync(path, 1_700_000_000, 1_700_000_000);
        // The first search starts the pool; the second runs on it and leaves the tree cached there.
        await search();
        expect(await search()).toEqual(["foo(a)"]);
        expect(pooled.scanPoolStarted).toBe(true);
        writeFileSync(path, "foo(abbb);\nbar(a);\n");
        utimesSync(path, 1_700_000_000, 1_700_000_000);
        expect(await search()).toEqual(["foo(abbb)"]);
      } finally {
        pooled.dispose();
        rmSync(same, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!built && !ci)("stops handing out files once maxMatches matches are in", async () => {
    const api = (await import(distUrl.href)) as typeof Api;
    const pooled = api.createStructuralParser({ workers: 2, parallelMinBytes: 0 });
    try {
      const spec = pooled.spec("python");
      const pattern = await pooled.compile(spec, "$A.append($B)");
      const search = () =>
        api.searchFiles({ parser: pooled, spec, pattern, workingDirectory: dir, target: dir, maxMatches: 5 });
      await search();
      const outcome = await search();
      expect(outcome.stopped).toBe("max-matches");
      // Each file holds 40 matches: a file stops at 5, and the workers stop after their batch.
      expect(outcome.files.every((file) => file.matches.length <= 5)).toBe(true);
      expect(outcome.files.length).toBeLessThan(24);
    } finally {
      pooled.dispose();
    }
  });
});
