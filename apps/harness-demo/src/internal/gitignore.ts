import { globToRegExp } from "./glob-pattern.js";

interface IgnoreRule {
  readonly pattern: RegExp;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
}

/** Decides whether a `/`-separated path relative to the root is ignored. */
export type IgnoreMatcher = (relativePath: string, isDirectory: boolean) => boolean;

/**
 * A matcher for the rules of one `.gitignore` at the root: comments, blank lines, `!` negation,
 * a trailing `/` for folders, and anchoring for patterns that contain a `/`. Nested `.gitignore`
 * files are not read — a deliberate simplification for the demo harness.
 */
export function parseGitignore(text: string): IgnoreMatcher {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    const directoryOnly = line.endsWith("/");
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    const glob = anchored ? line : `**/${line}`;
    try {
      rules.push({ pattern: globToRegExp(glob), negated, directoryOnly });
    } catch {
      // A line git cannot read either (`[z-a]`) matches nothing; the other rules still apply.
    }
  }
  return (relativePath, isDirectory) => {
    let ignored = false;
    for (const rule of rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.pattern.test(relativePath)) ignored = !rule.negated;
    }
    return ignored;
  };
}
