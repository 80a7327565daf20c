import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { afterAll, describe, expect, it, vi } from "vitest";
import type * as Api from "../index.js";

// Worker threads run the compiled entry (dist/search/scan-worker.js), so this test drives the
// built package: run `pnpm run build` first.
const distUrl = new URL("../../dist/index.js", import.meta.url);
const built = existsSync(fileURLToPath(distUrl));
const ci = process.env.CI === "true";
const dir = mkdtempSync(join(tmpdir(), "structural-syntax-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 40 files, 2 of them left broken by the rewrite (an `if` whose only statement becomes a comment), and
// one already broken elsewhere (a `(` left open), which is not blamed.
for (let index = 0; index < 40; index++) {
  const body = index % 20 === 3 ? "if x:\n        print(1)" : "print(1)\n    y = 2";
  const broken = index === 7 ? "\n\ndef g(:\n    return 2\n" : "\n";
  writeFileSync(join(dir, `m${index}.py`), `def f${index}():\n    ${body}${broken}`);
}

describe("ast_edit's syntax check on the worker pool", () => {
  it("is available from the built package", () => {
    if (!built && !ci) console.warn("SKIPPED: dist/ not built; the pooled syntax check does not run");
    expect(built || !ci).toBe(true);
  });

  it.skipIf(!built && !ci)(
    "runs on the workers and warns of the same places as the calling thread",
    async () => {
      const api = (await import(distUrl.href)) as typeof Api;
      const answers: string[] = [];
      let pooledChecks = 0;
      for (const workers of [0, 2]) {
        const parser = api.createStructuralParser({ workers, parallelMinBytes: 0 });
        const pool = parser.scanPool();
        const check = pool ? vi.spyOn(pool, "check") : undefined;
        const run = createRun({ workingDirectory: dir, resources: [[api.structuralParserKey, parser]] });
        try {
          const registry = createRegistry({ tools: [...api.structuralTools], approval: "auto" });
          const result = await registry.invoke(run, {
            tool: "ast_edit",
            args: { pattern: "print($$$A)", rewrite: "# gone", language: "python" },
          });
          answers.push(resultText(result).split("\n--- a/")[0] ?? "");
          pooledChecks += check?.mock.calls.length ?? 0;
        } finally {
          await run.dispose();
          parser.dispose();
        }
      }
      expect(pooledChecks).toBe(1);
      expect(answers[1]).toBe(answers[0]);
      expect(answers[0]).toContain("(proposed) 40 replacements in 40 files");
      expect(answers[0]).toMatch(
        /^Warning: this rewrite leaves 2 files with syntax errors they did not have/m,
      );
      expect(answers[0]).toMatch(/^ {2}m23\.py:2:10 leaves an empty block: if x:$/m);
      expect(answers[0]).toMatch(/^ {2}m3\.py:2:10 leaves an empty block: if x:$/m);
      expect(answers[0]).not.toMatch(/m7\.py/);
    },
    60_000,
  );
});
