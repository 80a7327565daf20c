import { ToolsError } from "@tools/registry";

/** A grep pattern ready for the match worker: its source and the flags it compiles with. */
export interface CompiledPattern {
  readonly source: string;
  readonly flags: string;
}

/** Characters a `u`-mode regex accepts after a backslash as themselves (besides letters and digits). */
const unicodeIdentityEscapes = new Set("^$\\.*+?()[]{}|/");

/**
 * Rewrites identity escapes that only non-Unicode regexes accept (`\-`, `\:`, `\_`, `\ `) as
 * `\u{…}` escapes of the same character, which mean the same in both modes; every other part of
 * the pattern is kept as written.
 */
function unicodeSafeEscapes(pattern: string): string {
  let out = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char !== "\\" || index + 1 >= pattern.length) {
      out += char;
      continue;
    }
    const next = pattern.codePointAt(index + 1) as number;
    const escaped = String.fromCodePoint(next);
    if (/[A-Za-z0-9]/.test(escaped) || unicodeIdentityEscapes.has(escaped)) {
      out += `\\${escaped}`;
    } else {
      out += `\\u{${next.toString(16)}}`;
    }
    index += escaped.length;
  }
  return out;
}

function compiles(source: string, flags: string): Error | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Compiles a grep pattern Unicode-aware: with the `u` flag, so `\p{L}` is a letter class, `.`
 * matches a whole emoji and `\u{1F600}` is that emoji. Identity escapes of punctuation that only
 * a non-Unicode regex accepts (`\-`, `\:`) are rewritten to mean the same character; a pattern
 * that still is not valid with `u` but is valid without (`a{`, a lone `]`) runs without it, with
 * the meaning it has there. Throws `INVALID_PATTERN` for a pattern valid in neither mode.
 */
export function compileGrepPattern(pattern: string, caseInsensitive: boolean): CompiledPattern {
  const base = caseInsensitive ? "i" : "";
  const unicode = unicodeSafeEscapes(pattern);
  if (compiles(unicode, `${base}u`) === undefined) return { source: unicode, flags: `${base}u` };
  const error = compiles(pattern, base);
  if (error === undefined) return { source: pattern, flags: base };
  throw new ToolsError({
    code: "INVALID_PATTERN",
    message: `pattern is not a valid regular expression (${error.message}); escape special characters such as ( [ { with a backslash`,
  });
}
