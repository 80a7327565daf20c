import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parsePlan, planHolds } from "../chunks/parse-plan.js";
import { findMatches, type StructuralMatch } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";

// A search parses only the statements (and class members) that hold the pattern's literals.
// Here, on real code that package managers install, every file's matches through that plan must
// equal the matches in the whole file's tree, to the offset, text and binding.

const ci = process.env.CI === "true";

function typescriptLib(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "lib");
  } catch {
    return undefined;
  }
}

/** This monorepo's packages folder, and the `src` folders in it: function bodies, not declarations. */
const packagesRoot = fileURLToPath(new URL("../../../", import.meta.url));
function packageSources(): string[] {
  return readdirSync(packagesRoot)
    .map((name) => join(name, "src"))
    .filter((path) => existsSync(join(packagesRoot, path)));
}

interface Corpus {
  readonly name: string;
  readonly language: string;
  readonly root: string | undefined;
  readonly paths: readonly string[];
  readonly extension: string;
  readonly patterns: readonly string[];
}

const corpora: readonly Corpus[] = [
  {
    name: "Debian python3 stdlib",
    language: "python",
    root: "/usr/lib/python3.11",
    paths: ["asyncio", "email", "json", "unittest", "argparse.py", "_pydecimal.py", "typing.py"],
    extension: ".py",
    patterns: ["$A.append($B)", "$X == $Y", "raise $E from $C", "self.$A = $B", "def $F(self): $$$B"],
  },
  {
    name: "golang-go stdlib",
    language: "go",
    root: "/usr/lib/go/src",
    paths: ["net/http", "encoding/json", "go/ast"],
    extension: ".go",
    patterns: [
      "errors.New($M)",
      "if err != nil { return $E }",
      "$A == nil",
      "for $I := range $X { $$$B }",
      // Read whole as an ERROR: planned by the tokens they write.
      "import $M",
      "case $A:",
      "default:",
    ],
  },
  {
    name: "typescript lib",
    language: "typescript",
    root: typescriptLib(),
    paths: ["lib.dom.d.ts", "lib.es5.d.ts", "typescript.d.ts"],
    extension: ".ts",
    patterns: [
      "readonly $P: $T",
      "readonly $P?: $T",
      "type $T = $U;",
      "keyof $T",
      "readonly $T[]",
      "interface $I { $$$B }",
      "declare function $F($$$A): $R;",
    ],
  },
  {
    // Statements split over lines (`if (c)⏎ return x;`, `}⏎ else {`) that a plan must not cut.
    name: "this monorepo's TypeScript sources",
    language: "typescript",
    root: packagesRoot,
    paths: packageSources(),
    extension: ".ts",
    patterns: [
      "if ($C) return $V;",
      "if ($C) { $$$A } else { $$$B }",
      "try { $$$A } catch ($E) { $$$B }",
      "await $X",
      "$A.push($B)",
      "const $A = $B;",
      "throw new $E($$$A);",
      "for (const $X of $Y) $S",
      // Read whole as an ERROR (a module is a string): planned by the tokens they write.
      "import { $$$N } from $M",
      "import $X from $M",
    ],
  },
];

const parser = createStructuralParser({ workers: 0, maxCachedTrees: 0 });
afterAll(() => parser.dispose());

function files(root: string, path: string, extension: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(extension))
    .map((name) => join(full, name));
}

function plain(matches: readonly StructuralMatch[]) {
  return matches.map((m) => ({ ...m, bindings: [...m.bindings] }));
}

describe("planned parses find what whole-file parses find", () => {
  it("has every corpus", () => {
    const missing = corpora.filter((c) => !c.root || !existsSync(c.root)).map((c) => c.name);
    if (missing.length > 0 && !ci) console.warn(`SKIPPED (missing): ${missing.join(", ")}`);
    expect(missing.length === 0 || !ci).toBe(true);
  });

  for (const corpus of corpora) {
    const available = corpus.root !== undefined && existsSync(corpus.root);
    describe(corpus.name, () => {
      it.skipIf(!available && !ci).each(corpus.patterns.map((p) => [p]))("%s", async (source) => {
        const root = corpus.root ?? ".";
        const spec = parser.spec(corpus.language);
        const pattern = await parser.compile(spec, source);
        let compared = 0;
        let matches = 0;
        let wholeChars = 0;
        let plannedChars = 0;
        const differing: string[] = [];
        for (const path of corpus.paths.flatMap((p) => files(root, p, corpus.extension))) {
          const text = readFileSync(path, "utf8");
          if (!pattern.literals.every((literal) => text.includes(literal))) continue;
          const plan = parsePlan(corpus.language, pattern, text);
          if (!plan) continue;
          const whole = await parser.parse(spec, text);
          const expected = plain(findMatches(pattern, whole, text).matches);
          whole.delete();
          let planned: ReturnType<typeof plain> = [];
          if (plan.ranges.length > 0) {
            const tree = await parser.parse(spec, text, plan.ranges);
            // A plan that does not parse cleanly, or where a match could span skipped members,
            // is not used (the search parses the file whole).
            const used = !tree.rootNode.hasError && planHolds(plan, tree, pattern, text);
            if (used) planned = plain(findMatches(pattern, tree, text).matches);
            tree.delete();
            if (!used) continue;
          }
          compared++;
          matches += expected.length;
          wholeChars += text.length;
          plannedChars += plan.ranges.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
          if (JSON.stringify(planned) !== JSON.stringify(expected)) differing.push(path);
        }
        expect(differing).toEqual([]);
        // Patterns whose root spans the file (or a body) are not planned; the others must be.
        if (compared > 0) {
          expect(matches).toBeGreaterThan(0);
          expect(plannedChars).toBeLessThan(wholeChars);
        }
      });
    });
  }
});
