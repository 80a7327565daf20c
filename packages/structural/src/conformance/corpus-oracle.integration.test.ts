import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { astGrepBinary, runAstGrep } from "../__fixtures__/ast-grep-cli.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { searchFiles } from "../search/search.js";

// Our match sets against `ast-grep run` (@ast-grep/cli devDependency) on real code that package
// managers install: Debian python3's standard library, golang-go's standard library and the
// typescript npm package's lib files. A subset of each keeps it lean. Patterns are ones where our
// semantics coincide with ast-grep's; the last case pins the two known differences.

const ci = process.env.CI === "true";
const binary = astGrepBinary();

function typescriptLib(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "lib");
  } catch {
    return undefined;
  }
}
const tsLib = typescriptLib();

interface Corpus {
  readonly name: string;
  readonly language: string;
  readonly root: string | undefined;
  /** Files or folders under root that are searched. */
  readonly paths: () => string[];
  readonly patterns: readonly string[];
}

const corpora: readonly Corpus[] = [
  {
    name: "Debian python3 stdlib (email/)",
    language: "python",
    root: "/usr/lib/python3.11",
    paths: () => ["email"],
    patterns: ["$A.append($B)", "isinstance($X, $T)", "self.$A = $B", "def $F($$$P): $$$B", "not $A"],
  },
  {
    name: "golang-go stdlib (encoding/)",
    language: "go",
    root: "/usr/lib/go/src",
    paths: () => ["encoding"],
    patterns: [
      "if err != nil { return $E }",
      "$X, err := $C",
      "for $I := range $X { $$$B }",
      "make([]byte, $N)",
    ],
  },
  {
    name: "typescript lib (lib.es5 and lib.es2015.*)",
    language: "typescript",
    root: tsLib,
    paths: () => readdirSync(tsLib ?? ".").filter((name) => /^lib\.es(5|2015\.[a-z.]+)\.d\.ts$/.test(name)),
    patterns: [
      "interface $I { $$$B }",
      "declare var $V: $T;",
      "declare function $F($$$A): $R;",
      "type $T = $U;",
    ],
  },
];

const parser = createStructuralParser({ maxCachedTrees: 1024 });
afterAll(() => parser.dispose());

async function matchSets(corpus: Corpus, source: string, paths: readonly string[]) {
  const root = corpus.root ?? ".";
  const spec = parser.spec(corpus.language);
  const pattern = await parser.compile(spec, source);
  const ours = new Map<string, string>();
  for (const path of paths) {
    const outcome = await searchFiles({
      parser,
      spec,
      pattern,
      workingDirectory: root,
      target: join(root, path),
    });
    for (const file of outcome.files)
      for (const match of file.matches)
        ours.set(`${file.relativePath}:${match.line}:${match.column}`, match.text);
  }
  const theirs = new Map(
    runAstGrep(binary!, source, corpus.language, paths, root).map((m) => [
      `${m.file}:${m.range.start.line}:${m.range.start.column}`,
      m.text,
    ]),
  );
  return {
    ours,
    theirs,
    onlyOurs: [...ours].filter(([key]) => !theirs.has(key)),
    onlyTheirs: [...theirs].filter(([key]) => !ours.has(key)),
  };
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
      it.skipIf(!available && !ci).each(corpus.patterns.map((p) => [p]))("%s", async (source) => {
        const paths = corpus.paths();
        expect(paths.length).toBeGreaterThan(0);
        const { ours, onlyOurs, onlyTheirs } = await matchSets(corpus, source, paths);
        expect(ours.size).toBeGreaterThan(0);
        expect({ onlyOurs, onlyTheirs }).toEqual({ onlyOurs: [], onlyTheirs: [] });
      });
    });
  }

  const go = corpora[1]!;
  it.skipIf((binary === undefined || !existsSync(go.root!)) && !ci)(
    "go `if err != nil { return $E }`: the only differences are the intended ones",
    async () => {
      const { onlyOurs, onlyTheirs } = await matchSets(go, "if err != nil { return $E }", [
        "cmd/dist",
        "debug/macho",
      ]);
      // Ours ignores a comment before the `return` (ast-grep 0.51.1 skips a trailing comment in
      // the block but not a leading one); ast-grep accepts an `else` the pattern did not ask for.
      expect(onlyOurs.length).toBeGreaterThan(0);
      expect(onlyTheirs.length).toBeGreaterThan(0);
      for (const [, text] of onlyOurs)
        expect(text).toMatch(/\{\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*return\b/);
      for (const [, text] of onlyTheirs) expect(text).toMatch(/^if err != nil \{[\s\S]*?\n\t*\} else\b/);
    },
  );
});
