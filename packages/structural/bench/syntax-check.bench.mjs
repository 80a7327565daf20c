// Cost of ast_edit's syntax check of the staged text (`checkRewrites`: one parse of each changed
// file's new text, the original read again only where the new text has errors) against the
// search and the rewrite it follows, on a large rewrite. Not part of `npm test`. Run after
// `pnpm run build`: node bench/syntax-check.bench.mjs [--runs N] [--workers N]
// Corpora: Debian's Python 3.11 stdlib (/usr/lib/python3.11) and golang-go's net/ (/usr/lib/go/src/net).
// Each rewrite: a clean one (no warning) and one whose template drops a `)` (every file warned,
// so every original is parsed again too). Medians of N runs; trees are not cached between runs.
// --keep-trees: the parser keeps the trees the search built, as ast_edit's does (default cache),
// so the check reparses incrementally where the search parsed a file whole; the pool is then
// warmed on another folder (`warm`), not the corpus. Adds a JavaScript corpus (JavaScript has no
// parse plan: the search parses each file whole): .js files of 2-400 KB under this monorepo's
// node_modules/.pnpm, four of five copied to one temporary folder (6 MB), the fifth to the
// warm-up's (the repository's .gitignore leaves node_modules out of a search).
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createStructuralParser, rewriteFile, searchFiles } from "../dist/index.js";
import { checkRewrites } from "../dist/rewrite/check-rewrites.js";

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const runs = argument("--runs", 3);
const workers = argument("--workers", 2);
const keepTrees = process.argv.includes("--keep-trees");
let jsCorpus;
let jsWarm;
if (keepTrees) {
  const pnpm = fileURLToPath(new URL("../../../node_modules/.pnpm", import.meta.url));
  const sources = readdirSync(pnpm, { recursive: true })
    .filter((name) => name.endsWith(".js"))
    .map((name) => join(pnpm, name))
    .filter((path) => {
      const { size } = statSync(path);
      return size > 2048 && size < 400 * 1024;
    })
    .sort();
  jsCorpus = mkdtempSync(join(tmpdir(), "syntax-check-js-"));
  jsWarm = mkdtempSync(join(tmpdir(), "syntax-check-js-warm-"));
  // Up to 6 MB in the corpus (the tree cache's default 8 Mi characters holds all of it) and 1.5 MB
  // to warm up on.
  const filled = new Map([
    [jsCorpus, 0],
    [jsWarm, 0],
  ]);
  sources.forEach((path, index) => {
    const folder = index % 5 === 4 ? jsWarm : jsCorpus;
    const size = statSync(path).size;
    if ((filled.get(folder) ?? 0) + size > (folder === jsWarm ? 1.5e6 : 6e6)) return;
    filled.set(folder, (filled.get(folder) ?? 0) + size);
    copyFileSync(path, join(folder, `${index}.js`));
  });
  process.on("exit", () => {
    rmSync(jsCorpus, { recursive: true, force: true });
    rmSync(jsWarm, { recursive: true, force: true });
  });
}
const cases = [
  {
    language: "python",
    corpus: "/usr/lib/python3.11",
    warm: "/usr/lib/python3/dist-packages/pip",
    pattern: "$A.append($B)",
    clean: "$A.push($B)",
    broken: "$A.push($B",
  },
  {
    language: "go",
    corpus: "/usr/lib/go/src/net",
    warm: "/usr/lib/go/src/crypto",
    pattern: "errors.New($M)",
    clean: "fmt.Errorf($M)",
    broken: "fmt.Errorf($M",
  },
  ...(keepTrees
    ? [
        {
          language: "javascript",
          corpus: jsCorpus,
          warm: jsWarm,
          pattern: "$A.push($B)",
          clean: "$A.add($B)",
          broken: "$A.add($B",
        },
      ]
    : []),
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const { language, corpus, warm, pattern: source, clean, broken } of cases) {
  for (const [kind, template] of [
    ["clean", clean],
    ["broken", broken],
  ]) {
    const times = { search: [], rewrite: [], check: [], searchCpu: [], checkCpu: [] };
    const cpu = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    let facts;
    for (let run = 0; run < runs; run++) {
      // A fresh parser per run: no tree cached from the run before (the pool is warmed first).
      const parser = createStructuralParser(keepTrees ? { workers } : { workers, maxCachedTrees: 0 });
      const spec = parser.spec(language);
      const pattern = await parser.compile(spec, source);
      const warmOn = keepTrees ? warm : corpus;
      if (workers > 0) await searchFiles({ parser, spec, pattern, workingDirectory: warmOn, target: warmOn });
      let start = performance.now();
      let cpuStart = cpu();
      const outcome = await searchFiles({ parser, spec, pattern, workingDirectory: corpus, target: corpus });
      times.search.push(performance.now() - start);
      times.searchCpu.push(cpu() - cpuStart);
      start = performance.now();
      const files = [];
      for (const file of outcome.files) {
        const rewrite = rewriteFile(file.text, file.matches, template, {
          keepTrailingSemicolon: pattern.keepsSemicolon,
          codeNames: pattern.codeNames,
        });
        if (rewrite.newText === file.text) continue;
        files.push({
          path: file.path,
          hash: file.hash,
          originalText: file.text,
          newText: rewrite.newText,
          spans: rewrite.replacements.map(({ start: s, end, text }) => ({
            start: s,
            end,
            length: text.length,
          })),
        });
      }
      times.rewrite.push(performance.now() - start);
      start = performance.now();
      cpuStart = cpu();
      const checks = await checkRewrites(parser, spec, files);
      times.check.push(performance.now() - start);
      times.checkCpu.push(cpu() - cpuStart);
      facts = {
        files: files.length,
        chars: files.reduce((sum, file) => sum + file.newText.length, 0),
        warned: checks.filter((check) => check.sites.length > 0).length,
        pooled: parser.scanPoolStarted,
      };
      parser.dispose();
    }
    rows.push({
      language,
      kind,
      ...facts,
      search: median(times.search),
      rewrite: median(times.rewrite),
      check: median(times.check),
      searchCpu: median(times.searchCpu),
      checkCpu: median(times.checkCpu),
    });
  }
}
console.log(`workers ${workers}, medians of ${runs} runs${keepTrees ? ", trees kept" : ""}`);
console.log(
  "| corpus | rewrite | files changed | new text (MB) | files warned | search (ms) | rewrite (ms) | check (ms) | check / search | CPU (ms) search → check | CPU check / search |",
);
console.log(
  "| ------ | ------- | ------------- | ------------- | ------------ | ----------- | ------------ | ---------- | -------------- | ------------------------ | ------------------ |",
);
for (const row of rows)
  console.log(
    `| ${row.language} | ${row.kind} | ${row.files} | ${(row.chars / 1e6).toFixed(2)} | ${row.warned} | ${row.search.toFixed(0)} | ${row.rewrite.toFixed(0)} | ${row.check.toFixed(0)} | ${(row.check / row.search).toFixed(2)} | ${row.searchCpu.toFixed(0)} → ${row.checkCpu.toFixed(0)} | ${(row.checkCpu / row.searchCpu).toFixed(2)} |`,
  );
