import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { astGrepBinary } from "../__fixtures__/ast-grep-cli.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { searchFiles } from "../search/search.js";
import { matchKey, scanCorpus, type ScanMatch } from "./__fixtures__/ast-grep-scan.js";
import { corpora, type Corpus } from "./__fixtures__/corpora.js";

// Our match sets against ast-grep's (@ast-grep/cli devDependency) on real code: every match's
// position and text, and every binding of the matches both find. A pattern may name an intended
// difference (each match only one side has must show it).

const ci = process.env.CI === "true";
const binary = astGrepBinary();

const parser = createStructuralParser({ maxCachedTrees: 1024 });
afterAll(() => parser.dispose());

/** ast-grep's matches, one scan per corpus for all its patterns (each file parsed once). */
const scans = new Map<Corpus, Map<string, ScanMatch>[]>();
function theirMatches(corpus: Corpus, index: number): Map<string, ScanMatch> {
  let scan = scans.get(corpus);
  if (!scan) {
    const patterns = corpus.patterns.map((p) => p.pattern);
    scan = scanCorpus(binary!, corpus.language, patterns, corpus.paths(), corpus.root!);
    scans.set(corpus, scan);
  }
  return scan[index] ?? new Map();
}

async function ourMatches(corpus: Corpus, source: string): Promise<Map<string, ScanMatch>> {
  const root = corpus.root!;
  const spec = parser.spec(corpus.language);
  const pattern = await parser.compile(spec, source);
  const ours = new Map<string, ScanMatch>();
  for (const path of corpus.paths()) {
    const outcome = await searchFiles({
      parser,
      spec,
      pattern,
      workingDirectory: root,
      target: join(root, path),
    });
    for (const file of outcome.files)
      for (const match of file.matches) {
        const bindings = Object.fromEntries(
          [...match.bindings].map(([name, captured]) => [name, captured.text]),
        );
        ours.set(matchKey(file.relativePath, match.line, match.column), { text: match.text, bindings });
      }
  }
  return ours;
}

function bindingDifferences(ours: ReadonlyMap<string, ScanMatch>, theirs: ReadonlyMap<string, ScanMatch>) {
  const differing: { key: string; name: string; ours: string; theirs: string }[] = [];
  for (const [key, mine] of ours) {
    const other = theirs.get(key);
    if (!other) continue;
    const names = new Set([...Object.keys(mine.bindings), ...Object.keys(other.bindings)]);
    for (const name of names) {
      const a = mine.bindings[name];
      const b = other.bindings[name];
      if (a !== b) differing.push({ key, name, ours: a ?? "(unbound)", theirs: b ?? "(unbound)" });
    }
  }
  return differing;
}

describe("match sets on real corpora equal ast-grep's", () => {
  it("has the ast-grep binary and every corpus", () => {
    const missing = [
      ...(binary ? [] : ["@ast-grep/cli binary"]),
      ...corpora.filter((c) => !c.root || !existsSync(c.root)).map((c) => c.name),
    ];
    if (missing.length > 0 && !ci) console.warn(`SKIPPED (missing): ${missing.join(", ")}`);
    expect(missing.length === 0 || !ci).toBe(true);
  });

  for (const corpus of corpora) {
    const available = binary !== undefined && corpus.root !== undefined && existsSync(corpus.root);
    describe(corpus.name, () => {
      it.skipIf(!available && !ci).each(corpus.patterns.map((p, index) => [p.pattern, p, index] as const))(
        "%s",
        async (_source, spec, index) => {
          const ours = await ourMatches(corpus, spec.pattern);
          const theirs = theirMatches(corpus, index);
          expect(ours.size).toBeGreaterThan(0);
          const onlyOurs = [...ours].filter(([key]) => !theirs.has(key)).map(([key, m]) => [key, m.text]);
          const onlyTheirs = [...theirs].filter(([key]) => !ours.has(key)).map(([key, m]) => [key, m.text]);
          const { differs } = spec;
          if (differs) {
            expect(onlyOurs.length + onlyTheirs.length).toBeGreaterThan(0);
            expect(onlyOurs.filter(([, text]) => !differs.onlyOurs?.test(text ?? ""))).toEqual([]);
            expect(onlyTheirs.filter(([, text]) => !differs.onlyTheirs?.test(text ?? ""))).toEqual([]);
          } else {
            expect({ onlyOurs, onlyTheirs }).toEqual({ onlyOurs: [], onlyTheirs: [] });
          }
          const allowed = differs?.bindings;
          const differing = bindingDifferences(ours, theirs);
          const unexplained = allowed
            ? differing.filter(({ key }) => !allowed.ours.test(ours.get(key)?.bindings[allowed.name] ?? ""))
            : differing;
          if (allowed) expect(differing.length).toBeGreaterThan(0);
          expect(unexplained.slice(0, 5)).toEqual([]);
        },
        60_000,
      );
    });
  }
});

// A pattern tree-sitter reads whole as an ERROR is refused in a rule (`scan`), so ast-grep's
// matches come from `run -p`. Go's `case $A:` is the start of a case, its statements trailing.
describe("match sets of patterns read as an ERROR on real corpora equal ast-grep's run", () => {
  const goCorpus = corpora.find((c) => c.language === "go");
  const available = binary !== undefined && goCorpus?.root !== undefined && existsSync(goCorpus.root);
  // `default:` holds no metavariable: read as an ERROR all the same, as in ast-grep.
  // `default: $$$B` finds only the defaults with statements (an empty one has no child for `$$$B`).
  it.skipIf(!available && !ci).each(["case $A:", "default:", "default: $$$B"])(
    "%s in golang-go's stdlib (sync/, encoding/)",
    async (pattern) => {
      // Two of its folders, sync (the select cases of its tests) and encoding, keep it short.
      const corpus: Corpus = { ...goCorpus!, paths: () => ["sync", "encoding"] };
      const result = spawnSync(
        binary!,
        ["run", "-p", pattern, "-l", corpus.language, "--json=compact", ...corpus.paths()],
        { cwd: corpus.root!, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
      );
      if (result.status !== 0) throw new Error(`ast-grep run exited with ${result.status}: ${result.stderr}`);
      const theirs = new Map<string, string>();
      for (const match of JSON.parse(result.stdout) as {
        file: string;
        text: string;
        range: { start: { line: number; column: number } };
      }[])
        theirs.set(matchKey(match.file, match.range.start.line, match.range.start.column), match.text);
      const ours = await ourMatches(corpus, pattern);
      // Cases with statements too, not only empty ones.
      expect([...ours.values()].filter((m) => m.text.includes("\n")).length).toBeGreaterThan(0);
      const onlyOurs = [...ours].filter(([key]) => !theirs.has(key)).map(([key, m]) => [key, m.text]);
      const onlyTheirs = [...theirs].filter(([key]) => !ours.has(key));
      const differentText = [...ours].filter(([key, m]) => theirs.has(key) && theirs.get(key) !== m.text);
      expect({ onlyOurs, onlyTheirs, differentText: differentText.slice(0, 5) }).toEqual({
        onlyOurs: [],
        onlyTheirs: [],
        differentText: [],
      });
    },
    120_000,
  );
});
