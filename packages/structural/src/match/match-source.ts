import type { StructuralParser } from "../parser/structural-parser.js";
import { findMatches, type StructuralMatch } from "./find-matches.js";

/**
 * Every match of `pattern` in a piece of source text: the matcher without files, for previews
 * and tests. Throws `PATTERN_INVALID` / `UNKNOWN_LANGUAGE` as the tools do.
 */
export async function matchSource(
  parser: StructuralParser,
  language: string,
  pattern: string,
  source: string,
): Promise<StructuralMatch[]> {
  const spec = parser.spec(language);
  const compiled = await parser.compile(spec, pattern);
  const tree = await parser.parse(spec, source);
  try {
    return findMatches(compiled, tree, source).matches;
  } finally {
    tree.delete();
  }
}
