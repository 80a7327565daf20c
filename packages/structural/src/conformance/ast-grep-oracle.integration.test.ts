import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Node } from "web-tree-sitter";
import { afterAll, describe, expect, it } from "vitest";
import { astGrepBinary } from "../__fixtures__/ast-grep-cli.js";
import { findLanguage } from "../grammars/languages.js";
import { findMatches } from "../match/find-matches.js";
import { createStructuralParser } from "../parser/structural-parser.js";
import { excludedLanguages, type ConformanceCase } from "./__fixtures__/conformance-case.js";
import { conformanceCases } from "./__fixtures__/conformance-cases.js";
import { astGrepNodeKinds, runAstGrepCase, type AstGrepOutcome } from "./__fixtures__/run-ast-grep-case.js";
import { expectedOutcome, observedOutcome, runOurs, type CaseOutcome } from "./__fixtures__/run-ours.js";

// Every case in a language ast-grep is run on goes through `ast-grep run` (@ast-grep/cli). Where
// our semantics coincide, ast-grep must give the case's matches, bindings and rewritten file, and
// the same matches and bindings as our matcher for every match. Where a case names an intended
// difference, ast-grep must really differ, and do what the case says it does.

const ci = process.env.CI === "true";
const binary = astGrepBinary();
const skip = !binary && !ci;
const dir = mkdtempSync(join(tmpdir(), "structural-oracle-"));
const emptyDir = join(dir, "empty");
mkdirSync(emptyDir);
const parser = createStructuralParser({ workers: 0 });
afterAll(() => {
  parser.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const runOn = conformanceCases
  .map((c, index) => ({ c, index }))
  .filter(({ c }) => !Object.hasOwn(excludedLanguages, c.language));
const coinciding = runOn.filter(({ c }) => c.differs === undefined);
const differing = runOn.filter(({ c }) => c.differs !== undefined);

function astGrep(testCase: ConformanceCase, index: number): AstGrepOutcome {
  const extension = findLanguage(testCase.language)?.extensions[0] ?? ".txt";
  return runAstGrepCase(binary!, testCase, dir, `case${index}${extension}`);
}

function accepted(outcome: AstGrepOutcome): CaseOutcome {
  if ("rejected" in outcome) throw new Error(`ast-grep rejected the pattern: ${outcome.rejected}`);
  return outcome;
}

function namedKinds(root: Node): Set<string> {
  const kinds = new Set<string>();
  const visit = (node: Node): void => {
    if (node.isNamed) kinds.add(node.type);
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return kinds;
}

describe("conformance cases against the ast-grep CLI", () => {
  it("finds the ast-grep binary (npm @ast-grep/cli)", () => {
    if (skip) console.warn("SKIPPED: @ast-grep/cli binary not installed; the oracle checks do not run");
    expect(binary !== undefined || !ci).toBe(true);
  });

  it("runs most cases against ast-grep", () => {
    expect(coinciding.length).toBeGreaterThanOrEqual(90);
    expect(differing.length).toBeGreaterThan(0);
  });

  describe("where the semantics coincide, ast-grep gives the same matches, bindings and rewrite", () => {
    it.skipIf(skip).each(coinciding.map(({ c, index }) => [c.name, c, index] as const))(
      "%s",
      async (_name, testCase, index) => {
        const theirs = accepted(astGrep(testCase, index));
        expect(observedOutcome(testCase, theirs)).toEqual(expectedOutcome(testCase));
        // A known bug is ours: there the case's expectation is ast-grep's, not what we do.
        if (testCase.knownBug === undefined) expect(theirs).toEqual(await runOurs(parser, testCase));
      },
    );
  });

  describe("where they differ on purpose, ast-grep does what the case says instead", () => {
    it
      .skipIf(skip)
      .each(differing.map(({ c, index }) => [`${c.name} (${c.differs!.reason})`, c, index] as const))(
      "%s",
      (_name, testCase, index) => {
        const difference = testCase.differs!;
        const outcome = astGrep(testCase, index);
        if (difference.astGrep === "rejects the pattern") {
          expect(outcome).toHaveProperty("rejected");
          return;
        }
        const theirs = accepted(outcome);
        expect(theirs.matches.map((m) => m.text)).toEqual(difference.astGrep);
        if (difference.astGrepBindings)
          expect(theirs.matches[0]?.bindings).toEqual(difference.astGrepBindings);
        if (difference.astGrepRewrite !== undefined) expect(theirs.rewritten).toBe(difference.astGrepRewrite);
        expect(observedOutcome(testCase, theirs)).not.toEqual(expectedOutcome(testCase));
      },
    );
  });

  describe("languages left out of the oracle", () => {
    it.skipIf(skip).each(Object.entries(excludedLanguages))(
      "%s: the grammars differ",
      async (language, exclusion) => {
        expect(conformanceCases.some((c) => c.language === language)).toBe(true);
        const theirs = astGrepNodeKinds(binary!, exclusion.probe, language, emptyDir);
        const tree = await parser.parse(parser.spec(language), exclusion.probe);
        try {
          const ours = namedKinds(tree.rootNode);
          expect(ours.size).toBeGreaterThan(1);
          for (const kind of exclusion.astGrepKindsNotOurs) {
            expect(theirs).toContain(kind);
            expect(ours).not.toContain(kind);
          }
        } finally {
          tree.delete();
        }
      },
    );
  });
});

// Code that does not parse: tree-sitter reads it with the tokens it lacks supplied (MISSING,
// zero-width). ast-grep binds a metavariable to such a token as to any other; so do we, and a
// match's text, offsets and bindings (text and offsets) are ast-grep's. The code is ASCII, so
// ast-grep's byte offsets are our UTF-16 offsets.
describe("a metavariable on a token tree-sitter supplied (MISSING), against the ast-grep CLI", () => {
  interface Span {
    readonly text: string;
    readonly start: number;
    readonly end: number;
  }
  interface Found extends Span {
    readonly bindings: Readonly<Record<string, Span>>;
  }
  const byPlace = (a: Found, b: Found) => a.start - b.start || a.end - b.end || a.text.localeCompare(b.text);

  function theirs(language: string, pattern: string, code: string, file: string): Found[] {
    writeFileSync(join(dir, file), code);
    const result = spawnSync(binary!, ["run", "-p", pattern, "-l", language, "--json=compact", file], {
      cwd: dir,
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`ast-grep exited with ${result.status}: ${result.stderr}`);
    type Range = { byteOffset: { start: number; end: number } };
    const json = JSON.parse(result.stdout) as {
      text: string;
      range: Range;
      metaVariables: { single: Record<string, { text: string; range: Range }> };
    }[];
    const span = (text: string, range: Range): Span => ({
      text,
      start: range.byteOffset.start,
      end: range.byteOffset.end,
    });
    return json
      .map((m) => ({
        ...span(m.text, m.range),
        bindings: Object.fromEntries(
          Object.entries(m.metaVariables.single).map(([name, v]) => [name, span(v.text, v.range)]),
        ),
      }))
      .sort(byPlace);
  }

  async function ours(language: string, pattern: string, code: string) {
    const spec = parser.spec(language);
    const compiled = await parser.compile(spec, pattern);
    const tree = await parser.parse(spec, code);
    try {
      return findMatches(compiled, tree, code).matches;
    } finally {
      tree.delete();
    }
  }

  it.skipIf(skip).each([
    // `$B` is the identifier tree-sitter supplied after `+`: the match is `a +`, B empty at its end.
    ["typescript", "$A + $B", "f(a + );\nx = b + c;\n"],
    ["rust", "$A + $B", "fn f() { let x = a + ; }\n"],
    ["java", "$A + $B", "class C { int f() { return a + ; } }\n"],
    // The number a JSON pair lacks.
    ["json", '{"k": $V}', '{"k": }\n'],
    // A pattern that is one metavariable matches the supplied identifier too (`$A`), or the
    // supplied `)` (`$$OP`, any node): an empty match.
    ["typescript", "$A", "a + ;\n"],
    ["typescript", "$$OP", "foo(1;\n"],
  ] as const)("%s %s on %j", async (language, pattern, code) => {
    const extension = findLanguage(language)?.extensions[0] ?? ".txt";
    const expected = theirs(language, pattern, code, `missing-${language}${extension}`);
    const found = await ours(language, pattern, code);
    const mine = found
      .map((m) => ({
        text: m.text,
        start: m.start,
        end: m.end,
        bindings: Object.fromEntries(
          [...m.bindings].map(([name, c]) => [name, { text: c.text, start: c.start, end: c.end }]),
        ),
      }))
      .sort(byPlace);
    // ast-grep does bind one: some binding (or a bare metavariable's match) is empty.
    expect(expected.some((m) => m.text === "" || Object.values(m.bindings).some((b) => b.text === ""))).toBe(
      true,
    );
    expect(mine).toEqual(expected);
    // Each such match says so (a rewrite leaves it unchanged).
    for (const m of found)
      if (m.text === "" || [...m.bindings.values()].some((b) => b.text === ""))
        expect(m.missing).toBeDefined();
  });
});
