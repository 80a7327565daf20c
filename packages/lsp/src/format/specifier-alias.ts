import type { Position } from "vscode-languageserver-protocol";

/** Lines read back for the `import {` or `export {` a specifier list opens with. */
const specifierListLines = 100;

const name = String.raw`[\p{L}\p{Nl}_$][\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}_$]*`;

/**
 * An import or export specifier's alias up to the name it renames, read backwards from the
 * alias, over lines: `{ add as `, `,\n  add as `, `, type add as `, `import add as `, `import (add as `
 * (Python's `from m import add as plus`), `add\n  as `.
 */
const aliasOf = new RegExp(
  String.raw`(?:^|[{,]|\bimport\s*\(?|\bexport\b)\s*(?:type\s+)?(${name})\s+as\s+$`,
  "du",
);

/**
 * The text up to a specifier's name ends in an import or export specifier list: `import {`,
 * `import X, {`, `export type {` with no brace or parenthesis after it, Python's `import (` with
 * no parenthesis after it, or `import` on the same line. Not a cast of a value to its type of the
 * same name (`[Shape, Color as Color]`, `f(a, Color as Color)`, `{Color as Color}` in JSX): both
 * names are references there, and each is a use.
 */
const specifierList = new RegExp(
  String.raw`(?:\b(?:import|export)\s+(?:type\s+)?(?:${name}\s*,\s*)?\{[^{}()]*|\bimport\s*\([^()]*|\bimport\b[^\n(){}]*)$`,
  "u",
);

/**
 * The text before a place may end in `as` and an alias (a quick look before reading back): only
 * spaces, `as `, or a comment's end.
 */
const mayBeAlias = /(?:^\s*|\bas\s+|\*\/\s*)$/u;
/** A trailing `as` (of `add\n  as plus`), left out when seeing whether a name came before it yet. */
const trailingAs = /(?:^|\s)as\s+$/u;

/** The lines {@link specifierAliasOf} reads back: as they are, and as code. */
export interface AliasLines {
  /** The whole text of 0-based `line`; undefined past the file's end. */
  text(line: number): string | undefined;
  /**
   * The code of 0-based `line`: its comments and literals blanked (columns kept), read over
   * lines from the file's start (`sharedCodeOnlyLines`): a block comment, a template literal,
   * a regular expression literal holding `*\/` each read as what it is.
   */
  code(line: number): string;
}

/**
 * Where the name an import or export specifier renames starts, when `at` (0-based, in `lines`) is
 * the specifier's alias (`plus` of `import { add as plus }`, `addAgain` of
 * `export {\n  add as addAgain,\n}`, `twice` of `add as\n    twice`); undefined at anything else,
 * a name after `as` outside such a list included (a cast, see {@link specifierList}). The list
 * may span lines and hold comments, with parentheses or braces in them (`// (legacy)`); read back
 * at most {@link specifierListLines} lines, as code (see {@link AliasLines.code}): a brace in a
 * string, a comment or a template literal over lines is no list's opening.
 */
export function specifierAliasOf(lines: AliasLines, at: Position): Position | undefined {
  const own = lines.text(at.line)?.slice(0, at.character);
  // A quick look at the text as it is, before the file is scanned for its code.
  if (own === undefined || !mayBeAlias.test(own)) return undefined;
  // The lines from the alias's up (the first cut at the alias), as code, to the one with a brace
  // or parenthesis (the list's opening, or code before the place).
  const code = [lines.code(at.line).slice(0, at.character)];
  let top = at.line;
  // Set once a name has come before the `as`: the place is no alias unless it is `<name> as`
  // after the line's start, a `{` or `,`, `import` or `export` (seen before reading further back,
  // `^` standing for what the lines above end in: `key: value as Foo` needs no look above).
  let settled = false;
  const settles = (): boolean => {
    const text = code.join("\n");
    if (!/\S/.test(text.replace(trailingAs, ""))) return true;
    settled = true;
    return aliasOf.test(text);
  };
  if (!settles()) return undefined;
  while (!/[{}()]/.test(code[0]!) && top > 0 && top > at.line - specifierListLines) {
    if (lines.text(top - 1) === undefined) break;
    top--;
    code.unshift(lines.code(top));
    if (!settled && !settles()) return undefined;
  }
  if (!settled) return undefined;
  const before = code.join("\n");
  const from = aliasOf.exec(before)?.indices?.[1]?.[0];
  if (from === undefined || !specifierList.test(before.slice(0, from))) return undefined;
  let line = top;
  for (let i = before.indexOf("\n"); i !== -1 && i < from; i = before.indexOf("\n", i + 1)) line++;
  return { line, character: from - (before.lastIndexOf("\n", from - 1) + 1) };
}
