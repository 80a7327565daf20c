import { StructuralError } from "../errors/structural-error.js";
import type { StructuralMatch } from "../match/find-matches.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import { lineHolding, lineStarts } from "./line-search.js";

/** `$$$NAME` (group 1), `$NAME` / `$$NAME` (group 2), or an anonymous `$$$` (no group). */
const reference = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)|\$\$\$(?![A-Z0-9_])/g;

/** A backslash before a reference makes it code: `\$HOME` is written as `$HOME`. */
function escaped(template: string, found: RegExpMatchArray): boolean {
  return template.charCodeAt((found.index ?? 0) - 1) === 92; /* \ */
}

/**
 * The metavariable a template reference names, or undefined where it is code: escaped with a
 * backslash (`\$HOME`), or the language's own variable (`$_SESSION` in PHP; never a `$$$` run).
 */
function referenceName(
  template: string,
  found: RegExpMatchArray,
  codeNames: readonly string[],
): string | undefined {
  if (escaped(template, found)) return undefined;
  // An anonymous `$$$` binds nothing a template could write, as `$_` does not: named `$$` here
  // so that it is reported as `$$$`.
  if (found[1] === undefined && found[2] === undefined) return "$$";
  const name = found[1] ?? found[2] ?? "";
  return found[1] === undefined && codeNames.includes(name) ? undefined : name;
}

/** Checks that every `$NAME` / `$$$NAME` of the template is bound by the pattern. */
export function checkTemplate(template: string, pattern: CompiledPattern): void {
  const unknown = new Set<string>();
  for (const found of template.matchAll(reference)) {
    const name = referenceName(template, found, pattern.codeNames);
    if (name === undefined) continue;
    if (!pattern.singleNames.has(name) && !pattern.multiNames.has(name)) unknown.add(name);
  }
  if (unknown.size > 0) {
    const bound = [...pattern.singleNames, ...[...pattern.multiNames].map((n) => `$$${n}`)].map(
      (n) => `$${n}`,
    );
    throw new StructuralError({
      code: "TEMPLATE_INVALID",
      message:
        `the rewrite names ${[...unknown].map((n) => `$${n}`).join(", ")}, which the pattern does not bind; ` +
        (bound.length > 0 ? `the pattern binds ${bound.join(", ")}` : "the pattern binds no metavariables") +
        " (wildcards like $_ and $$$ bind nothing: name what the rewrite needs, e.g. foo($$$ARGS) → bar($$$ARGS); write \\$NAME for a literal $NAME)",
    });
  }
}

/** Leading whitespace of the line containing `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? "";
}

/** Blanks as `String.prototype.trim` takes them off (white space and line terminators). */
const blank = /\s/;

/**
 * A file's lines, read once for all the matches of a rewrite: where each starts and where its
 * last code is. Finding them per match from its offset would scan the line back to its start
 * (and on to its end) for every match, which on a minified file's one line of 50,000 matches is
 * 50,000 scans of half a megabyte each.
 */
export class SourceLines {
  private starts: number[] | undefined;
  /** Per line: the index of its last character that is no blank, -1 when none, undefined when not read yet. */
  private readonly lastCode: (number | undefined)[] = [];

  constructor(readonly text: string) {}

  /** Offsets at which each line starts (also the end of a text ending in a newline). */
  private lineStarts(): number[] {
    return (this.starts ??= lineStarts(this.text));
  }

  /** The 0-based line holding `offset` (a `\n` belongs to the line it ends). */
  private lineOf(offset: number): number {
    return lineHolding(this.lineStarts(), offset);
  }

  /** Leading spaces and tabs of the line containing `offset`, up to `offset` (as {@link lineIndent}). */
  indent(offset: number): string {
    const start = this.lineStarts()[this.lineOf(offset)] ?? 0;
    let end = start;
    while (end < offset && (this.text[end] === " " || this.text[end] === "\t")) end++;
    return this.text.slice(start, end);
  }

  /** Whether code (anything but blanks) follows `offset` on its line. */
  codeAfter(offset: number): boolean {
    const line = this.lineOf(offset);
    let last = this.lastCode[line];
    if (last === undefined) {
      const starts = this.lineStarts();
      const start = starts[line] ?? 0;
      last = (starts[line + 1] ?? this.text.length + 1) - 2;
      while (last >= start && blank.test(this.text[last] ?? "")) last--;
      if (last < start) last = -1;
      this.lastCode[line] = last;
    }
    return last >= offset;
  }
}

/** The dominant line ending of a text. */
export function lineEnding(text: string): "\r\n" | "\n" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

function dedent(value: string, indent: string): string {
  const lines = value.split("\n");
  return lines
    .map((line, index) => (index > 0 && line.startsWith(indent) ? line.slice(indent.length) : line))
    .join("\n");
}

/**
 * The replacement text for one match: metavariables substituted with their original source
 * (`$$$X` from its first node to its last; an empty `$$$X` also drops the `,` after it, or
 * before it at the end of a list; `\$NAME` is the code `$NAME`), with ast-grep's indentation: a
 * multi-line capture is de-indented by the indent of the line it starts on and its later lines get
 * the indent of the template line it is placed on; then the later lines of the whole text get the
 * indent of the match's line. Indents are the leading spaces and tabs, taken as written (ast-grep
 * counts spaces only); blank lines stay blank. The file's line endings are used (`eol`, when the
 * caller computed `lineEnding(source)` once for many matches: finding it reads the whole file).
 * `end` is where the replacement ends in `source` (before a `;` it keeps): code after it on its
 * line goes on the template's last line, indented like the match's when the template ends in a
 * newline. `lines` are `source`'s (see {@link SourceLines}), read once for all a file's matches.
 */
export function fillTemplate(
  template: string,
  match: StructuralMatch,
  source: string,
  codeNames: readonly string[] = [],
  eol: "\r\n" | "\n" = lineEnding(source),
  end: number = match.end,
  /** The lines of `source`, when the caller read them once for many matches. */
  lines: SourceLines = new SourceLines(source),
): string {
  const normalized = template.replace(/\r\n/g, "\n");
  let out = "";
  let last = 0;
  for (const found of normalized.matchAll(reference)) {
    const index = found.index;
    // An escaped reference is code without its backslash.
    out += normalized.slice(last, escaped(normalized, found) ? index - 1 : index);
    last = index + found[0].length;
    const name = referenceName(normalized, found, codeNames);
    if (name === undefined || name === "$$") {
      out += found[0]; // code, as written
      continue;
    }
    const capture = match.bindings.get(name);
    if (!capture) continue;
    if (found[1] !== undefined && capture.text === "") {
      // An empty run takes a separator with it: `bar($$$A, $B)` gives `bar(x)`, not `bar(, x)`.
      const after = /^[ \t]*,[ \t]*/.exec(normalized.slice(last));
      if (after) last += after[0].length;
      else if (/^[ \t]*([)\]}>]|$)/.test(normalized.slice(last))) out = out.replace(/[ \t]*,[ \t]*$/, "");
      continue;
    }
    // As ast-grep does: the capture keeps its layout relative to its own first line, and its
    // later lines take the indent of the template line it sits on, wherever on that line it sits
    // (`  it($NAME, $FN);` indents the body of $FN by two more).
    const value = dedent(capture.text.replace(/\r\n/g, "\n"), lines.indent(capture.start));
    out += indentLater(value, lineIndent(normalized, index));
  }
  out += normalized.slice(last);
  // A rewrite ending in a newline leaves the rest of the match's line (its `;`) on a line of its
  // own, which takes the match's indent too, as in ast-grep (a line left empty stays blank).
  return indentLater(out, lines.indent(match.start), lines.codeAfter(end)).replace(/\n/g, eol);
}

/**
 * Prefixes every line but the first with `indent`, leaving blank lines blank (no trailing
 * spaces); with `last`, the last line too even when empty (the code after the match goes there).
 */
function indentLater(text: string, indent: string, last = false): string {
  if (indent === "") return text;
  const lines = text.split("\n");
  return lines
    .map((line, index) =>
      index > 0 && (line !== "" || (last && index === lines.length - 1)) ? indent + line : line,
    )
    .join("\n");
}
