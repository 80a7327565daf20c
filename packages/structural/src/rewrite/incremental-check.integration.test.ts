import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { searchFiles } from "../search/search.js";
import { checkRewrite, parseRewritten, type RewriteToCheck } from "./check-rewrites.js";
import { rewriteFile } from "./rewrite-file.js";
import { errorSites } from "./syntax-errors.js";

// The syntax check reparses a rewritten file incrementally from the original's tree when the
// cache holds it (the search parsed the file whole). That must find exactly what a parse from
// scratch finds: compared here on real files, for rewrites that keep them valid, break them
// (a `)` dropped) and delete statements. Only a parser with no cache parses from scratch.
const full = createStructuralParser({ workers: 0, maxCachedTrees: 0 });
const incremental = createStructuralParser({ workers: 0, maxCachedChars: 256 * 1024 * 1024 });
afterAll(() => {
  full.dispose();
  incremental.dispose();
});

const packages = join(import.meta.dirname, "../../..");
const cases = [
  {
    language: "python",
    corpus: "/usr/lib/python3.11/email",
    pattern: "$A.append($B)",
    to: "$A.push($B",
    breaks: true,
  },
  { language: "python", corpus: "/usr/lib/python3.11/email", pattern: "$A.append($B)", to: "$A.push($B)" },
  { language: "python", corpus: "/usr/lib/python3.11/email", pattern: "$A = $B", to: "" },
  {
    language: "go",
    corpus: "/usr/lib/go/src/net/http",
    pattern: "errors.New($M)",
    to: "fmt.Errorf($M",
    breaks: true,
  },
  { language: "go", corpus: "/usr/lib/go/src/net/http", pattern: "if err != nil { return $E }", to: "" },
  {
    language: "typescript",
    corpus: join(packages, "structural/src"),
    pattern: "$A.push($B)",
    to: "$A.add($B)",
  },
  {
    language: "typescript",
    corpus: join(packages, "structural/src"),
    pattern: "expect($A)",
    to: "assert($A",
  },
] as const;

/** The rewrites of every matching file of a case (at most `limit` files), as ast_edit checks them. */
async function rewrites(language: string, corpus: string, source: string, to: string, limit = 150) {
  const spec = incremental.spec(language);
  const pattern = await incremental.compile(spec, source);
  const outcome = await searchFiles({
    parser: incremental,
    spec,
    pattern,
    workingDirectory: corpus,
    target: corpus,
    ...(to.trim() === "" ? { statements: true } : {}),
  });
  const files: RewriteToCheck[] = [];
  for (const file of outcome.files.slice(0, limit)) {
    const rewrite = rewriteFile(file.text, file.matches, to, {
      keepTrailingSemicolon: pattern.keepsSemicolon,
      codeNames: pattern.codeNames,
    });
    if (rewrite.newText === file.text) continue;
    // The search parsed most files through a plan (some statements only): the whole tree cached.
    (await incremental.fileTree(file.path, spec, file.text, file.hash)).release();
    files.push({
      path: file.path,
      hash: file.hash,
      originalText: file.text,
      newText: rewrite.newText,
      spans: rewrite.replacements.map(({ start, end, text }) => ({ start, end, length: text.length })),
    });
  }
  return { spec, files };
}

describe("the syntax check's incremental reparse finds what a parse from scratch finds", () => {
  for (const { language, corpus, pattern, to, ...rest } of cases)
    it.skipIf(!existsSync(corpus))(
      `${language}: ${pattern} → ${JSON.stringify(to)} in ${corpus}`,
      // Up to 150 files, each parsed four to six ways (a broken one twice on the incremental path).
      { timeout: 120_000 },
      async () => {
        const { spec, files } = await rewrites(language, corpus, pattern, to);
        expect(files.length).toBeGreaterThan(10);
        let warned = 0;
        for (const file of files) {
          // The incremental path is the one taken: the original's tree is at hand.
          const lease = incremental.cachedFileTree(file.path, spec, file.hash);
          expect(lease, file.path).toBeDefined();
          lease?.release();
          const fromScratch = await full.parse(spec, file.newText);
          const reparsed = await parseRewritten(incremental, spec, file);
          try {
            expect(errorSites(reparsed, spec.id), file.path).toEqual(errorSites(fromScratch, spec.id));
          } finally {
            fromScratch.delete();
            reparsed.delete();
          }
          const sites = await checkRewrite(incremental, spec, file);
          expect(sites, file.path).toEqual(await checkRewrite(full, spec, file));
          if (sites.length > 0) warned++;
        }
        // A template that drops a `)` breaks every file it rewrites.
        if ("breaks" in rest) expect(warned).toBe(files.length);
      },
    );
});

describe("on broken text the incremental reparse's error recovery can differ", () => {
  it("parses a rewritten file with errors again from scratch, so its warnings are a fresh parse's", async () => {
    // Found by random destructive edits: tree-sitter, reusing the old tree's nodes, recovered
    // from this error elsewhere (two error sites, 18–60 and 101–102) than a fresh parse (18–158).
    const originalText =
      "const s = 'abcd';\nfunction f(a, b) {\n  if (a) { return b + 1; }\n  for (let i = 0; i < 3; i++) { g(i); }\n}\nclass C { m() { return [1, 2, 3].map((x) => x * 2); } }\n";
    const [start, end, text] = [28, 34, "};("];
    const file: RewriteToCheck = {
      path: "/virtual/broken.js",
      hash: "broken-js-1",
      originalText,
      newText: originalText.slice(0, start) + text + originalText.slice(end),
      spans: [{ start, end, length: text.length }],
    };
    const spec = incremental.spec("javascript");
    (await incremental.fileTree(file.path, spec, originalText, file.hash)).release();
    const fromScratch = await full.parse(spec, file.newText);
    const reparsed = await parseRewritten(incremental, spec, file);
    try {
      expect(errorSites(reparsed, spec.id)).toEqual(errorSites(fromScratch, spec.id));
      expect(errorSites(fromScratch, spec.id)).toEqual([{ start: 18, end: 158 }]);
    } finally {
      fromScratch.delete();
      reparsed.delete();
    }
    expect(await checkRewrite(incremental, spec, file)).toEqual(await checkRewrite(full, spec, file));
  });
});
