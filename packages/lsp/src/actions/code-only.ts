import { dialectOf, oddBackticks, type Range } from "./code-dialect.js";
import { scanLine } from "./code-lines.js";
import { scanCode, ScanDoubt, type LineState } from "./code-scan.js";
import { slashContext } from "./slash-context.js";

/**
 * One line of source with its comments and string literals blanked (each character a space, so
 * columns stay): what is left is code. By the line's text alone: a comment `//` or `/* … *\/`
 * (`#` in Python) and quoted text on the line, by the language's rules (`language` is the server
 * table's: "typescript", "python", "go", "rust", "c", "dart"; another gets `'…'` and `"…"`):
 * interpolations are code (`${…}` in template literals and Dart strings, Dart's `$name`, `{…}` in
 * Python f-strings but not `{{`); a TypeScript `/` opens a regular expression literal where the
 * code before it says so (after `=`, `(`, `return` …, not after a name or `)`); Rust and C++ raw
 * strings are read with their delimiters; a Rust `'` that starts no valid char literal is a
 * lifetime; a C `'` within a number is a digit separator. What is blanked is certainly not code:
 * a string not closed on the line, and a line inside a comment or string that began on an
 * earlier line, are taken as code, and so is a whole line this scan cannot read for sure (a `/`
 * after `}` or at the line's start, which may divide or open a regular expression; JSX text's
 * `Don't`; an odd number of backticks, a template literal's middle).
 */
export function codeOnly(text: string, language: string): string {
  const dialect = dialectOf(language);
  if (oddBackticks(text, dialect)) return text;
  const ranges: Range[] = [];
  try {
    scanCode(text, 0, dialect, ranges, { inOrder: false, slash: slashContext("unknown") }, false);
  } catch (error) {
    if (error instanceof ScanDoubt) return text;
    throw error;
  }
  return blanked(text, ranges);
}

function blanked(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  // UTF-16 units, as LSP columns count.
  const out = text.split("");
  for (const [from, to] of ranges) for (let i = from; i < to; i++) out[i] = " ";
  return out.join("");
}

/**
 * The lines of a whole file as {@link codeOnly} makes them, but read in order, so that what
 * runs over lines is known: a block comment `/* … *\/` (nested in Rust and Dart), a TypeScript
 * template literal, a Go raw string, a Python or Dart triple-quoted string, a Rust string or raw
 * string, a C++ raw string, a string or C `//` comment continued by a `\` at the line's end (a
 * docstring's middle line is no code), and what a TypeScript `/` at a line's start is. Returns
 * the code of line `index` (0-based); lines are scanned once, up to the furthest asked. Where a
 * line cannot be read for sure (see {@link codeOnly}), it is taken as code; if from there it
 * could open something running over lines (a backtick, `/*`), the lines after it are read each
 * alone, as {@link codeOnly} does: a use is never taken for a comment.
 */
export function codeOnlyLines(lines: readonly string[], language: string): (index: number) => string {
  const dialect = dialectOf(language);
  const done: string[] = [];
  // A file's start is where a statement may start: a `/` there opens a regular expression.
  const state: LineState = { inOrder: true, slash: slashContext("regex") };
  return (index) => {
    while (done.length <= index && done.length < lines.length) {
      const text = lines[done.length]!;
      if (state.lost) {
        done.push(codeOnly(text, language));
        continue;
      }
      const ranges: Range[] = [];
      scanLine(text, done.length, dialect, state, ranges);
      done.push(blanked(text, ranges));
    }
    return done[index] ?? lines[index] ?? "";
  };
}

/** The {@link codeOnlyLines} of each lines array (a file text's, cached with it), per language. */
const sharedLines = new WeakMap<readonly string[], Map<string, (index: number) => string>>();

/**
 * {@link codeOnlyLines} kept with `lines` (a file text's cached lines array): a later request on
 * the same unchanged text reuses the lines already scanned instead of scanning from the file's
 * start again. Dropped with the array.
 */
export function sharedCodeOnlyLines(lines: readonly string[], language: string): (index: number) => string {
  let perLanguage = sharedLines.get(lines);
  if (perLanguage === undefined) sharedLines.set(lines, (perLanguage = new Map()));
  let code = perLanguage.get(language);
  if (code === undefined) perLanguage.set(language, (code = codeOnlyLines(lines, language)));
  return code;
}
