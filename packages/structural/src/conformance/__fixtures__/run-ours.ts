import type { StructuralParser } from "../../parser/structural-parser.js";
import { findMatches } from "../../match/find-matches.js";
import { rewriteFile } from "../../rewrite/rewrite-file.js";
import type { ConformanceCase } from "./conformance-case.js";

/** One match as plain data: its text and every binding's text. */
export interface MatchOutcome {
  readonly text: string;
  readonly bindings: Readonly<Record<string, string>>;
}

/** What a matcher did on a case: every match and, for a rewrite, the whole file after it. */
export interface CaseOutcome {
  readonly matches: readonly MatchOutcome[];
  readonly rewritten?: string;
}

/** Runs our matcher (and rewrite) on a case the way ast_grep / ast_edit do; throws if the pattern is rejected. */
export async function runOurs(parser: StructuralParser, testCase: ConformanceCase): Promise<CaseOutcome> {
  const spec = parser.spec(testCase.language);
  const pattern = await parser.compile(spec, testCase.pattern);
  const tree = await parser.parse(spec, testCase.code);
  try {
    // As ast_edit: a rewrite to nothing looks for the statements its matches are.
    const { matches } = findMatches(pattern, tree, testCase.code, {
      statements: testCase.rewrite?.[0].trim() === "",
    });
    const outcome = matches.map((m) => ({
      text: m.text,
      bindings: Object.fromEntries([...m.bindings].map(([name, captured]) => [name, captured.text])),
    }));
    if (!testCase.rewrite) return { matches: outcome };
    const { newText } = rewriteFile(testCase.code, matches, testCase.rewrite[0], {
      keepTrailingSemicolon: pattern.keepsSemicolon,
      codeNames: pattern.codeNames,
    });
    return { matches: outcome, rewritten: newText };
  } finally {
    tree.delete();
  }
}

/** What the case expects, in the shape of a {@link CaseOutcome} (bindings of the first match only). */
export function expectedOutcome(testCase: ConformanceCase): {
  readonly texts: readonly string[];
  readonly firstBindings?: Readonly<Record<string, string>>;
  readonly rewritten?: string;
} {
  return {
    texts: testCase.matches,
    ...(testCase.bindings ? { firstBindings: testCase.bindings } : {}),
    ...(testCase.rewrite ? { rewritten: testCase.rewrite[1] } : {}),
  };
}

/** The same view of an actual outcome, for comparing with {@link expectedOutcome}. */
export function observedOutcome(
  testCase: ConformanceCase,
  outcome: CaseOutcome,
): ReturnType<typeof expectedOutcome> {
  return {
    texts: outcome.matches.map((m) => m.text),
    ...(testCase.bindings ? { firstBindings: outcome.matches[0]?.bindings ?? {} } : {}),
    ...(testCase.rewrite ? { rewritten: outcome.rewritten ?? "" } : {}),
  };
}
