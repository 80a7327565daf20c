import type { Position } from "vscode-languageserver-protocol";

/** Most lines of a class header read after the line naming the class. */
const headerLines = 30;

const name = String.raw`[\p{ID_Start}_][\p{ID_Continue}]*`;
/** A base written as a (dotted) name, subscripted or not: `Base`, `mod.Base`, `Generic[T]`. */
const dottedBase = new RegExp(String.raw`^((?:${name}\s*\.\s*)*(${name}))\s*(?:\[[^]*\])?$`, "u");

/**
 * Where the base classes of a Python class are named in its header: for each base written as a
 * (dotted, maybe subscripted) name, the position of its last name (`Base` of `pkg.base.Base`,
 * `Generic` of `Generic[T]`), where a definition request finds the class. Keyword arguments
 * (`metaclass=M`), starred ones and other expressions are no bases this finds. `nameEnd` is where
 * the class's name ends (0-based line, UTF-16 character); comments and strings in the header are
 * skipped, and at most {@link headerLines} lines after it are read. Empty for a class with no
 * parenthesised bases, or a header not closed within them.
 */
export function baseNamePositions(lines: readonly string[], nameEnd: Position): Position[] {
  const starts: number[] = [];
  let text = "";
  for (let line = nameEnd.line; line < lines.length && line <= nameEnd.line + headerLines; line++) {
    starts.push(text.length);
    text += (line === nameEnd.line ? lines[line]!.slice(nameEnd.character) : lines[line]!) + "\n";
  }
  const code = blankCommentsAndStrings(text);
  let at = skipSpace(code, 0);
  if (code[at] === "[") at = skipSpace(code, closing(code, at) + 1);
  if (code[at] !== "(") return [];
  const end = closing(code, at);
  if (end < 0) return [];
  const positions: Position[] = [];
  for (const [from, to] of topLevelSegments(code, at + 1, end)) {
    const segment = code.slice(from, to);
    const lead = segment.length - segment.trimStart().length;
    const found = dottedBase.exec(segment.trim());
    if (!found) continue;
    const last = from + lead + found[1]!.length - found[2]!.length;
    positions.push(positionOf(starts, last, nameEnd));
  }
  return positions;
}

/** The text with comments and string literals blanked (same length, line breaks kept). */
function blankCommentsAndStrings(text: string): string {
  let out = "";
  for (let at = 0; at < text.length;) {
    const char = text[at]!;
    if (char === "#") {
      const end = text.indexOf("\n", at);
      const stop = end < 0 ? text.length : end;
      out += " ".repeat(stop - at);
      at = stop;
    } else if (char === '"' || char === "'") {
      const quote = text.startsWith(char.repeat(3), at) ? char.repeat(3) : char;
      let stop = at + quote.length;
      while (stop < text.length && !text.startsWith(quote, stop)) stop += text[stop] === "\\" ? 2 : 1;
      stop = Math.min(text.length, stop + quote.length);
      out += text.slice(at, stop).replace(/[^\n]/g, " ");
      at = stop;
    } else {
      out += char;
      at++;
    }
  }
  return out;
}

function skipSpace(code: string, at: number): number {
  while (at < code.length && (/\s/.test(code[at]!) || (code[at] === "\\" && code[at + 1] === "\n")))
    at += code[at] === "\\" ? 2 : 1;
  return at;
}

/** The offset of the bracket closing the one at `open`, or -1. */
function closing(code: string, open: number): number {
  let depth = 0;
  for (let at = open; at < code.length; at++) {
    if ("([{".includes(code[at]!)) depth++;
    else if (")]}".includes(code[at]!) && --depth === 0) return at;
  }
  return -1;
}

/** The [from, to) spans between the commas at depth 0 of code[from, to). */
function topLevelSegments(code: string, from: number, to: number): Array<[number, number]> {
  const segments: Array<[number, number]> = [];
  let depth = 0;
  let start = from;
  for (let at = from; at < to; at++) {
    const char = code[at]!;
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (char === "," && depth === 0) {
      segments.push([start, at]);
      start = at + 1;
    }
  }
  segments.push([start, to]);
  return segments;
}

function positionOf(starts: readonly number[], offset: number, nameEnd: Position): Position {
  let index = starts.length - 1;
  while (index > 0 && starts[index]! > offset) index--;
  const character = offset - starts[index]!;
  return { line: nameEnd.line + index, character: index === 0 ? nameEnd.character + character : character };
}
