/**
 * A test of whether a file's text imports `name` by that name in `language` (the server table's
 * language): TypeScript `import { name } from` / `export { name } from` (over several lines too)
 * and `require(…)` on a line naming it, Python `import name` / `from m import (…, name)`, Rust
 * `use …name…;`. Undefined for a language that imports files or packages, not names (Go, C,
 * Dart). A heuristic for ordering, not a parse: a comment shaped as an import passes.
 */
export function importsNameTest(language: string, name: string): ((text: string) => boolean) | undefined {
  const word = `(?<![\\p{L}\\p{N}_$])${name.replace(/[$]/g, "\\$&")}(?![\\p{L}\\p{N}_$])`;
  const clause = "[\\p{L}\\p{N}\\p{M}_$\\s{},*]";
  const patterns =
    language === "typescript"
      ? [
          // An import clause holds names, spaces, braces, commas and `*` only: the match cannot
          // run on over other statements (a file without semicolons made it backtrack for seconds).
          `(?:^|[;}])\\s*(?:import|export)(?![\\p{L}\\p{N}_$])${clause}*?${word}${clause}*?\\bfrom\\s*["']`,
          `^\\s*import\\s+${word}`,
          // A line naming it and calling require (the look-ahead first: one pass per line).
          `^(?=[^\\n]*\\brequire\\s*\\()[^\\n]*?${word}`,
        ]
      : language === "python"
        ? [`^\\s*import\\s[^\\n]*${word}`, `^\\s*from\\s+\\S+\\s+import\\s+(?:\\([^)]*|[^\\n]*)${word}`]
        : language === "rust"
          ? [`^\\s*(?:pub(?:\\([^)]*\\))?\\s+)?use\\s[^;]*${word}`]
          : [];
  if (patterns.length === 0) return undefined;
  const tests = patterns.map((pattern) => new RegExp(pattern, "mu"));
  return (text) => text.includes(name) && tests.some((test) => test.test(text));
}
