// Scan time of ast_grep's search against the native `ast-grep run` on the same corpora and
// patterns, measured in one run and printed as ratios (ours / ast-grep; ≤ 1.0 means as fast).
// Also checks that both find the same match set (path:line:col). Not part of `npm test`.
// Run after `pnpm run build`: node bench/scan.bench.mjs
import { existsSync, realpathSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { execFileSync } from "node:child_process";
import { createStructuralParser, searchFiles } from "../dist/index.js";

const require = createRequire(import.meta.url);
function astGrepBinary() {
  const cli = dirname(require.resolve("@ast-grep/cli/package.json"));
  const pkg = `@ast-grep/cli-${process.platform}-${process.arch}${process.platform === "linux" ? "-gnu" : ""}`;
  return join(dirname(createRequire(join(cli, "package.json")).resolve(`${pkg}/package.json`)), "ast-grep");
}
const binary = astGrepBinary();

const tsLib = dirname(
  createRequire(join(process.cwd(), "../../package.json")).resolve("typescript/package.json"),
);
const corpora = [
  {
    name: "python stdlib",
    language: "python",
    root: "/usr/lib/python3.11",
    patterns: ["$A.append($B)", "isinstance($X, $T)", "$A == $A", "raise $E from $C"],
  },
  {
    name: "go stdlib",
    language: "go",
    root: "/usr/lib/go-1.19/src",
    patterns: ["errors.New($M)", "if err != nil { return $E }", "$A == $A"],
  },
  {
    name: "typescript lib",
    language: "typescript",
    root: join(tsLib, "lib"),
    patterns: ["readonly $P: $T", "$A && $A()", "Array<$T>"],
  },
].filter((c) => existsSync(c.root));

function runAstGrep(pattern, language, root) {
  try {
    return JSON.parse(
      execFileSync(binary, ["run", "-p", pattern, "-l", language, "--json=compact", "."], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 1 << 30,
      }),
    );
  } catch (error) {
    if (error.status === 1) return [];
    throw error;
  }
}

const parser = createStructuralParser({ maxCachedTrees: 0 });
const rows = [];
for (const corpus of corpora) {
  const root = realpathSync(corpus.root);
  const spec = parser.spec(corpus.language);
  for (const source of corpus.patterns) {
    const pattern = await parser.compile(spec, source);
    let t = performance.now();
    const ours = await searchFiles({ parser, spec, pattern, workingDirectory: root, target: root });
    const oursMs = performance.now() - t;
    t = performance.now();
    const theirs = runAstGrep(source, corpus.language, root);
    const theirsMs = performance.now() - t;
    const ourSet = new Set(
      ours.files.flatMap((f) => f.matches.map((m) => `${f.relativePath}:${m.line}:${m.column}`)),
    );
    const theirSet = new Set(
      theirs.map(
        (m) => `${relative(root, join(root, m.file))}:${m.range.start.line}:${m.range.start.column}`,
      ),
    );
    const onlyOurs = [...ourSet].filter((k) => !theirSet.has(k));
    const onlyTheirs = [...theirSet].filter((k) => !ourSet.has(k));
    rows.push({
      corpus: corpus.name,
      pattern: source,
      literal: pattern.literals.length > 0 ? "yes" : "no",
      files: ours.considered,
      parsed: ours.parsed,
      ours: ourSet.size,
      astGrep: theirSet.size,
      onlyOurs: onlyOurs.length,
      onlyTheirs: onlyTheirs.length,
      oursMs: Math.round(oursMs),
      astGrepMs: Math.round(theirsMs),
      ratio: +(oursMs / theirsMs).toFixed(2),
    });
    if (onlyOurs.length + onlyTheirs.length > 0) {
      console.log(
        `${corpus.name} ${source}: only ours e.g. ${onlyOurs.slice(0, 3).join(", ")}; only ast-grep e.g. ${onlyTheirs.slice(0, 3).join(", ")}`,
      );
    }
  }
}
parser.dispose();
console.table(rows);
