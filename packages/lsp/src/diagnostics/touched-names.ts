import type { Diagnostic } from "vscode-languageserver-protocol";
import { messageText } from "../format/diagnostics.js";
import { identifiers } from "../positions/identifier-chars.js";
import { splitLines } from "../positions/line-ends.js";

/** Where a line comment starts, per language (block comments and docstrings are not told). */
const lineComment: Readonly<Record<string, string>> = { python: "#" };

/**
 * A line's code: from a line comment's start on (outside quotes, by a plain scan) is left out,
 * so that a comment-only edit changes no name.
 */
function codeOf(line: string, comment: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quote) {
      if (char === "\\") i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === "`") {
      quote = char;
    } else if (line.startsWith(comment, i)) {
      return line.slice(0, i);
    }
  }
  return line;
}

function nameCounts(text: string, comment: string): Map<string, number> {
  const counts = new Map<string, number>();
  const names = identifiers();
  for (const line of splitLines(text)) {
    for (const [name] of codeOf(line, comment).matchAll(names)) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * The names a write changed in a file: those whose number of occurrences in its code differs
 * between `before` and `after` (a name renamed, removed, added, or a use of one changed), line
 * comments left out. A comment-only edit, or one moving code around, changes none. `language`:
 * the server's language id (`#` comments for python, `//` for the others).
 */
export function touchedNames(before: string, after: string, language: string): Set<string> {
  const comment = lineComment[language] ?? "//";
  const old = nameCounts(before, comment);
  const now = nameCounts(after, comment);
  const touched = new Set<string>();
  for (const [name, count] of old) if (now.get(name) !== count) touched.add(name);
  for (const name of now.keys()) if (!old.has(name)) touched.add(name);
  return touched;
}

/**
 * Whether a diagnostic's message names one of `names` as servers quote a name (`"name"` in
 * pyright's, `'name'` in tsc's, `` `name` `` in rust-analyzer's and gopls's): a diagnostic in
 * a file a write did not change that names what the write changed is the likeliest of its
 * diagnostics to have been caused by it.
 */
export function namesTouched(diagnostic: Diagnostic, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  for (const [, quoted] of messageText(diagnostic).matchAll(/["'`]([^"'`\s]+)["'`]/g)) {
    if (quoted !== undefined && names.has(quoted)) return true;
  }
  return false;
}
