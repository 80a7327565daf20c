// Scan time of ast_grep's search against the native `ast-grep run` on the same corpora and
// patterns, measured in one run and printed as ratios (ours / ast-grep; ≤ 1.0 means as fast).
// Also checks that both find the same match set (path:line:col). Not part of `npm test`.
// Run after `pnpm run build`:
//   node bench/scan.bench.mjs [--runs N] [--workers N] [--language L] [--corpus NAME-PART]
// Each (corpus, pattern) is timed N times (default 5), ours and ast-grep alternating, and the
// medians are compared. Trees are not cached between runs (maxCachedTrees: 0); the worker pool
// is started by a warm-up search first, as it is once per process in real use.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
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

const onlyIndex = process.argv.indexOf("--language");
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const corpusIndex = process.argv.indexOf("--corpus");
const onlyCorpus = corpusIndex > 0 ? process.argv[corpusIndex + 1] : undefined;
const tsLib = dirname(
  createRequire(join(process.cwd(), "../../package.json")).resolve("typescript/package.json"),
);
// The .js files of the packages this monorepo installed (the real folders of
// node_modules/.pnpm, ~2,300 files), copied out of the repository, whose .gitignore leaves
// node_modules out of both searches. Made only when the JavaScript corpus is run.
function nodeModulesCorpus() {
  const store = join(process.cwd(), "../../node_modules/.pnpm");
  if (!existsSync(store)) return "/nonexistent";
  const out = mkdtempSync(join(tmpdir(), "scan-bench-js-"));
  process.on("exit", () => rmSync(out, { recursive: true, force: true }));
  const copy = (dir, to) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const from = join(dir, entry.name);
      if (entry.isDirectory()) copy(from, join(to, entry.name));
      else if (entry.isFile() && entry.name.endsWith(".js") && !lstatSync(from).isSymbolicLink()) {
        mkdirSync(to, { recursive: true });
        copyFileSync(from, join(to, entry.name));
      }
    }
  };
  for (const pkg of readdirSync(store, { withFileTypes: true })) {
    const modules = join(store, pkg.name, "node_modules");
    // `.pnpm/node_modules` holds only links to the others.
    if (pkg.isDirectory() && pkg.name !== "node_modules" && existsSync(modules))
      copy(modules, join(out, pkg.name));
  }
  return out;
}

const corpora = [
  {
    name: "python stdlib",
    language: "python",
    root: "/usr/lib/python3.11",
    patterns: ["$A.append($B)", "isinstance($X, $T)", "$A == $A", "raise $E from $C", "$A[$B] = $C"],
  },
  {
    name: "go stdlib",
    language: "go",
    root: "/usr/lib/go/src",
    patterns: [
      // ast-grep reads the bare pattern as a type conversion and finds nothing: it is given the
      // call in a function body, the reading ours takes.
      { pattern: "errors.New($M)", astGrep: ["func f() { errors.New($M) }", "call_expression"] },
      "if err != nil { return $E }",
      "$A == $A",
      "$A := $B",
    ],
  },
  {
    name: "typescript lib",
    language: "typescript",
    root: join(tsLib, "lib"),
    patterns: [
      // ast-grep reads the bare member as an ERROR and finds nothing: it is given the class
      // field, the reading ours takes.
      {
        pattern: "readonly $P: $T",
        astGrep: ["class A { readonly $P: $T }", "public_field_definition"],
      },
      "$A && $A()",
      "Array<$T>",
      "($A: $T) => $R",
    ],
  },
  {
    // Function bodies, where a plan splits statements: this monorepo's own packages.
    name: "typescript monorepo",
    language: "typescript",
    root: join(process.cwd(), "../../packages"),
    patterns: ["if ($C) return $V;", "await $X", "$A.push($B)", "try { $$$A } catch ($E) { $$$B }"],
  },
  // Patterns tree-sitter reads whole as an ERROR (a node of any type with those children).
  {
    name: "javascript node_modules",
    language: "javascript",
    root: () => nodeModulesCorpus(),
    patterns: ["import $X from $M", "import { $$$N } from $M"],
  },
  {
    name: "go net/http",
    language: "go",
    root: "/usr/lib/go/src/net/http",
    patterns: ["import $M", "case $A:"],
  },
  {
    name: "c node headers",
    language: "c",
    root: "/usr/include/node",
    patterns: ["#define $N($$$A) $B"],
  },
]
  .filter((c) => (!only || c.language === only) && (!onlyCorpus || c.name.includes(onlyCorpus)))
  .map((c) => ({ ...c, root: typeof c.root === "function" ? c.root() : c.root }))
  .filter((c) => existsSync(c.root));

// CPU time of the ast-grep child (user + system, all its threads) through GNU time, when there.
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const timeFile = join(mkdtempSync(join(tmpdir(), "scan-bench-")), "time");
// ast-grep's memory (4 GB of address space, through the shell's ulimit) and time (120 s) are
// bounded: one run over a large tree once grew to 23 GB on a shared machine.
const shell = existsSync("/bin/sh") ? "/bin/sh" : undefined;
function runAstGrep(pattern, language, root) {
  const [context, selector] = pattern.astGrep ?? [pattern.pattern];
  const args = ["run", "-p", context, ...(selector ? ["--selector", selector] : [])];
  args.push("-l", language, "--json=compact", ".");
  let command = gnuTime ? [gnuTime, "-f", "%U %S", "-o", timeFile, binary, ...args] : [binary, ...args];
  if (shell) command = [shell, "-c", 'ulimit -v 4000000 && exec "$@"', "sh", ...command];
  const [file, ...rest] = command;
  let out;
  try {
    out = execFileSync(file, rest, {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 1 << 30,
      timeout: 120_000,
      killSignal: "SIGKILL",
    });
  } catch (error) {
    if (error.status !== 1) throw error;
    out = error.stdout || "[]";
  }
  let cpuMs = NaN;
  if (gnuTime) {
    const [user, system] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
    cpuMs = (user + system) * 1000;
  }
  return { matches: JSON.parse(out.trim() || "[]"), cpuMs };
}

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const runs = argument("--runs", 5);
const workers = argument("--workers", undefined);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const parser = createStructuralParser({ maxCachedTrees: 0, workers });
if (corpora[0]) {
  const warm = realpathSync(corpora[0].root);
  const spec = parser.spec(corpora[0].language);
  const first = corpora[0].patterns[0];
  const pattern = await parser.compile(spec, typeof first === "string" ? first : first.pattern);
  await searchFiles({ parser, spec, pattern, workingDirectory: warm, target: warm });
}
const rows = [];
for (const corpus of corpora) {
  const root = realpathSync(corpus.root);
  const spec = parser.spec(corpus.language);
  for (const entry of corpus.patterns) {
    const row = typeof entry === "string" ? { pattern: entry } : entry;
    const source = row.pattern;
    const pattern = await parser.compile(spec, source);
    const oursTimes = [];
    const theirTimes = [];
    const oursCpu = [];
    const theirCpu = [];
    let ours;
    let theirs;
    for (let run = 0; run < runs; run++) {
      let t = performance.now();
      const cpu = process.cpuUsage();
      ours = await searchFiles({ parser, spec, pattern, workingDirectory: root, target: root });
      oursTimes.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      oursCpu.push((used.user + used.system) / 1000);
      t = performance.now();
      const result = runAstGrep(row, corpus.language, root);
      theirTimes.push(performance.now() - t);
      theirCpu.push(result.cpuMs);
      theirs = result.matches;
    }
    const oursMs = median(oursTimes);
    const theirsMs = median(theirTimes);
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
      // "word": a literal with a letter (an identifier or keyword) picks files and statements;
      // "punct": only operators and brackets, found nearly everywhere (literal-free in effect).
      literal: pattern.literals.some((literal) => /\p{L}/u.test(literal)) ? "word" : "punct",
      files: ours.considered,
      parsed: ours.parsed,
      ours: ourSet.size,
      astGrep: theirSet.size,
      onlyOurs: onlyOurs.length,
      onlyTheirs: onlyTheirs.length,
      oursMs: Math.round(oursMs),
      astGrepMs: Math.round(theirsMs),
      ratio: +(oursMs / theirsMs).toFixed(2),
      oursCpuMs: Math.round(median(oursCpu)),
      astGrepCpuMs: Math.round(median(theirCpu)),
      cpuRatio: +(median(oursCpu) / median(theirCpu)).toFixed(2),
    });
    if (onlyOurs.length + onlyTheirs.length > 0) {
      console.log(
        `${corpus.name} ${source}: only ours e.g. ${onlyOurs.slice(0, 3).join(", ")}; only ast-grep e.g. ${onlyTheirs.slice(0, 3).join(", ")}`,
      );
    }
  }
}
parser.dispose();
console.log(`medians of ${runs} runs; workers: ${workers ?? "default"}`);
console.table(rows);
