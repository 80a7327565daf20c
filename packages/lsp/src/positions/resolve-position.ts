import { LspError } from "../errors/lsp-error.js";
import {
  charAt,
  charBefore,
  identifiers,
  nameCharAt,
  nameCharBefore,
  nameRuns,
  nonIdentifierChar,
} from "./identifier-chars.js";
import { splitLines } from "./line-ends.js";
import { spellingsIn } from "./normalized-match.js";

/** A position found from a line and a symbol substring. */
export interface ResolvedPosition {
  /** 0-based line and UTF-16 column, as LSP wants them. */
  readonly line: number;
  readonly character: number;
  /** Length of the name pointed at (the last name of a dotted symbol), in UTF-16 units. */
  readonly length: number;
  /**
   * The identifier at the position: the symbol itself, or the longer identifier that contains it
   * when no whole-identifier occurrence was found.
   */
  readonly identifier: string;
  /** Set when a nearby line or a longer identifier was used instead of exactly what was asked. */
  readonly note?: string;
  /**
   * The columns of the symbol's other whole-identifier occurrences on the line used (`count` in
   * `this.count = count;`), when there are any.
   */
  readonly alternatives?: readonly number[];
  /**
   * The symbol as the line used writes it, when that differs from what was asked only by Unicode
   * normalization (a decomposed `café`): the text to look for on the line.
   */
  readonly spelled?: string;
  /**
   * When a nearby line was used (not the asked one): the other nearby candidates, in the order
   * they were ranked (at most {@link nextCandidates}), to try when the server finds nothing at
   * this position; each with its own note.
   */
  readonly next?: readonly ResolvedPosition[];
}

/** Most other nearby candidates given in {@link ResolvedPosition.next}. */
export const nextCandidates = 3;

/** How many lines either side of the asked line are searched when the symbol is not on it. */
export const nearbyLines = 3;

function occurrences(text: string, symbol: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(symbol); at !== -1; at = text.indexOf(symbol, at + 1)) found.push(at);
  return found;
}

/**
 * True when the match is not part of a longer identifier. Only an edge that is a name character
 * needs a boundary: `push(` is whole in `items.push(item)`, though a name follows its `(`.
 */
function isWhole(text: string, at: number, length: number): boolean {
  const end = at + length;
  return (
    (!nameCharAt(text, at) || !nameCharBefore(text, at)) &&
    (!nameCharBefore(text, end) || !nameCharAt(text, end))
  );
}

/** The columns of every whole-identifier occurrence of `symbol` in `text`. */
export function wholeColumns(text: string, symbol: string): number[] {
  return occurrences(text, symbol).filter((at) => isWhole(text, at, symbol.length));
}

/**
 * The text to give as symbol for the name at `at` (`length` UTF-16 units) of a line `text`: the
 * shortest that occurs once on the line and that {@link resolvePosition} reads as that very
 * name (whole where it starts, and its focus, see {@link focusOf}, the name at `at`: in
 * `foo(bar) + foo(bar)`, `bar)` and not `+ foo(bar`, which points at the callee `foo`). Text that
 * holds no other name is preferred (`x;` picks the second `x` out of `p.x = q.x;`, where `q.x`
 * would hold two names), so a tool that wants the one identifier (lsp_rename) takes it as it is;
 * text found once before text whose first occurrence it is (the first `a` of `a.b = a.b`: `a`).
 * Every hint printed for a name comes from here. Undefined when no text within
 * {@link hintReach} characters reads so.
 */
export function uniqueOneNameContext(text: string, at: number, length: number): string | undefined {
  type Round = { names?: 1; once: boolean };
  const lands = (start: number, end: number, round: Round): string | undefined => {
    const candidate = text.slice(start, end);
    if (/^\s|\s$/.test(candidate)) return undefined;
    if (round.once ? occurrences(text, candidate).length !== 1 : wholeColumns(text, candidate)[0] !== start)
      return undefined;
    if (!isWhole(text, start, candidate.length)) return undefined;
    const focus = focusOf(candidate);
    if (round.names !== undefined && focus.names !== round.names) return undefined;
    return start + focus.offset === at && focus.name.length === length ? candidate : undefined;
  };
  // Text found once on the line first; else the first of several (the one resolvePosition takes).
  const rounds: Round[] = [{ names: 1, once: true }, { once: true }, { names: 1, once: false }];
  for (const round of rounds) {
    for (let grow = 0; grow <= Math.min(text.length, hintReach); grow++) {
      for (let left = grow; left >= 0; left--) {
        const start = at - left;
        const end = at + length + (grow - left);
        if (start < 0 || end > text.length) continue;
        const found = lands(start, end, round);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

/** Most characters a hint of {@link uniqueOneNameContext} holds besides the name. */
const hintReach = 120;

/** The identifier around a substring match: `Run` inside `RunOptions` is `RunOptions`. */
function containingIdentifier(text: string, at: number, length: number): string {
  let start = at;
  let end = at + length;
  while (start > 0 && nameCharBefore(text, start)) start -= charBefore(text, start).length;
  while (end < text.length && nameCharAt(text, end)) end += charAt(text, end).length;
  return text.slice(start, end);
}

/**
 * The name a symbol argument points at: `config.port` means `port` (a member is asked about
 * through its object), `parse(` means `parse`, a call means its callee (`add(1, 2)`: `add`;
 * `new Square(3)`: `Square`). Number literals and the insides of quoted strings are no names. A
 * symbol with no name characters (an operator) is taken whole; one that is only a string or a
 * number, by the names in it. `names`: how many names it holds;
 * `callee`: the name was taken as the one before the first `(`, not the last.
 */
export function focusOf(symbol: string): { name: string; offset: number; names: number; callee?: true } {
  if (!nonIdentifierChar.test(symbol)) return { name: symbol, offset: 0, names: 1 };
  const quoted = quotedSpans(symbol);
  const all = [...symbol.matchAll(nameRuns())];
  // A run starting with a digit is a number; one starting with a mark or a joiner holds no name.
  const words = all.filter((match) => /^[\p{ID_Start}_$]/u.test(match[0]));
  const code = words.filter((match) => !quoted.some(([from, to]) => match.index >= from && match.index < to));
  // Only a string or a number asked about (an import's path, a key): its names are what there is.
  const names = code.length > 0 ? code : words.length > 0 ? words : all;
  if (names.length === 0) return { name: symbol, offset: 0, names: 0 };
  const call = symbol.indexOf("(");
  const beforeCall = call === -1 ? [] : names.filter((match) => match.index < call);
  const focus = (beforeCall.length > 0 ? beforeCall : names).at(-1)!;
  const callee = beforeCall.length > 0 && focus !== names.at(-1);
  return {
    name: focus[0],
    offset: focus.index,
    names: names.length,
    ...(callee ? { callee: true as const } : {}),
  };
}

/** The [start, end) spans of `text` inside quotes ('…', "…", `…`; a backslash escapes). */
function quotedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let open: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (open !== undefined && char === "\\") i++;
    else if (open === undefined && (char === "'" || char === '"' || char === "`")) {
      open = char;
      from = i;
    } else if (char === open) {
      spans.push([from, i + 1]);
      open = undefined;
    }
  }
  if (open !== undefined) spans.push([from, text.length]);
  return spans;
}

/** Options of {@link resolvePosition}. */
export interface ResolveOptions {
  /**
   * A line's text with its comments and string literals blanked, columns kept (`codeOnlyLines`
   * of the file, which knows what runs over lines; `index` is the 0-based line). Given, a nearby
   * line where the symbol is code is taken before every nearby line where it is only in a
   * comment or a string, whatever their distances, and on the asked line its first occurrence in
   * code is taken before one in a comment or a string.
   */
  readonly codeOf?: (line: string, index: number) => string;
}

/**
 * Turns a 1-based `line` plus a `symbol` substring into an LSP position. Prefers a whole-identifier
 * occurrence — on the asked line, then up to {@link nearbyLines} lines either side (nearest
 * first, the line above before the one below) — before a substring of a longer identifier, and
 * says which line and which identifier were used whenever that is not exactly what was asked;
 * otherwise throws `LSP_SYMBOL_NOT_FOUND` quoting the line's text. `text` may be given already
 * split into lines. With `options.codeOf`, the nearby lines are tried in two rounds: first those
 * where the symbol is code (on such a line, its first occurrence in code is used), then those
 * where it is only in a comment or string. A comment naming the symbol one line off is not what
 * a line number slightly off meant (a server finds nothing there); the window is small enough
 * that the code within it is. The asked line itself is always tried first. A symbol is matched
 * under Unicode normalization when it is not on the lines as given (see `spellingsIn`).
 */
export function resolvePosition(
  text: string | readonly string[],
  line: number,
  symbol: string,
  display: string,
  options: ResolveOptions = {},
): ResolvedPosition {
  const lines = typeof text === "string" ? splitLines(text) : text;
  if (symbol === "") {
    throw new LspError({ code: "LSP_BAD_ARGUMENTS", message: "symbol must not be empty" });
  }
  // Spaces, brackets, separators and quotes name nothing: the server would answer for whatever
  // token touches them, an answer that looks right and is about something else.
  if (/^[\s()[\]{},;.:'"`]+$/.test(symbol)) {
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `symbol ${JSON.stringify(symbol)} holds no name: give the identifier (or operator) to ask about, as written on line ${line}, e.g. 'parseConfig' or 'config.port'`,
    });
  }
  if (!Number.isInteger(line) || line < 1 || line > lines.length) {
    // A last line ending in a newline leaves an empty string after it: not a line to count.
    const count = lines.length > 1 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `line ${line} is outside ${display}, which has ${count} line${count === 1 ? "" : "s"} (lines are 1-based)`,
    });
  }
  const index = line - 1;
  const candidates = [index];
  for (let distance = 1; distance <= nearbyLines; distance++)
    candidates.push(index - distance, index + distance);
  const inRange = candidates.filter((candidate) => lines[candidate] !== undefined);
  // A name written decomposed (`cafe\u0301`) and asked precomposed, or the other way round.
  const spelled = inRange.some((candidate) => lines[candidate]!.includes(symbol))
    ? symbol
    : (inRange.map((candidate) => spellingsIn(lines[candidate]!, symbol)[0]).find(Boolean) ?? symbol);
  const focus = focusOf(spelled);
  const { codeOf } = options;
  for (const whole of [true, false]) {
    const occurrenceOn = (candidate: number): Array<{ candidate: number; column: number; code: boolean }> => {
      const candidateText = lines[candidate]!;
      const columns = whole ? wholeColumns(candidateText, spelled) : occurrences(candidateText, spelled);
      if (columns.length === 0) return [];
      // One occurrence on the asked line is used whatever it is in: nothing to classify (a
      // line's code can cost a scan from the file's start).
      if (codeOf === undefined || (candidate === index && columns.length === 1))
        return [{ candidate, column: columns[0]!, code: true }];
      // The name's first character blanked: that occurrence lies in a comment or a string.
      const code = codeOf(candidateText, candidate);
      const inCode = columns.find((column) => code[column + focus.offset] !== " ");
      // The asked line is used whatever it holds (the caller decides what then).
      return [
        { candidate, column: inCode ?? columns[0]!, code: candidate === index || inCode !== undefined },
      ];
    };
    // The asked line, when it has the symbol, is used: the nearby lines are not looked at.
    const onAsked = occurrenceOn(index);
    const found =
      onAsked.length > 0 ? onAsked : inRange.filter((candidate) => candidate !== index).flatMap(occurrenceOn);
    // Stable: nearest first within each round.
    const ranked = [...found.filter(({ code }) => code), ...found.filter(({ code }) => !code)];
    const chosen = ranked[0];
    if (!chosen) continue;
    const positionAt = (candidate: number, column: number): ResolvedPosition => {
      const candidateText = lines[candidate]!;
      const notes: string[] = [];
      if (candidate !== index) {
        const inside = lines[index]!.indexOf(spelled);
        const absent =
          inside === -1
            ? `'${symbol}' is not on line ${line}`
            : `line ${line} has '${symbol}' only inside '${containingIdentifier(lines[index]!, inside, spelled.length)}'`;
        notes.push(`${absent}; used line ${candidate + 1}: ${candidateText.trim()}`);
      }
      if (focus.names > 1) {
        notes.push(
          `'${symbol}' holds ${focus.names} names; used '${focus.name}', ${focus.callee ? "the one called" : "the last"}`,
        );
      }
      const at = column + focus.offset;
      const identifier = whole ? focus.name : containingIdentifier(candidateText, at, focus.name.length);
      if (!whole && identifier !== focus.name) {
        notes.push(`no identifier is exactly '${focus.name}' there; used '${identifier}', which contains it`);
      }
      const alternatives = whole
        ? wholeColumns(candidateText, spelled)
            .filter((other) => other !== column)
            .map((other) => other + focus.offset)
        : [];
      return {
        line: candidate,
        character: at,
        length: focus.name.length,
        identifier,
        ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
        ...(alternatives.length > 0 ? { alternatives } : {}),
        ...(spelled !== symbol ? { spelled } : {}),
      };
    };
    const position = positionAt(chosen.candidate, chosen.column);
    const next =
      chosen.candidate === index
        ? []
        : ranked.slice(1, 1 + nextCandidates).map(({ candidate, column }) => positionAt(candidate, column));
    return next.length > 0 ? { ...position, next } : position;
  }
  const suggestion = closestIdentifier(lines[index]!, symbol);
  throw new LspError({
    code: "LSP_SYMBOL_NOT_FOUND",
    message: `symbol '${symbol}' is not on line ${line} of ${display} (nor within ${nearbyLines} lines of it); that line reads: ${JSON.stringify(
      lines[index]!.trim(),
    )}${suggestion ? `; did you mean '${suggestion}'?` : ""}. Give the line number where the symbol appears and a substring of that line.`,
  });
}

/**
 * The identifier of the line's code (string literals and comments left out) closest to
 * `symbol` by edit distance (case aside), among those containing it or contained in it (3
 * characters at least, half its length at least) and those within a small distance (1 for names
 * up to 5 characters, 2 above): the closest wins, not the first. Undefined when none is close.
 */
function closestIdentifier(text: string, symbol: string): string | undefined {
  const code = text
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, " ")
    .replace(/\/\/.*$/, "")
    .replace(/(^|\s)#\s.*$/, "$1");
  const found = new Set(code.match(identifiers()) ?? []);
  const wanted = symbol.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const identifier of found) {
    const candidate = identifier.toLowerCase();
    const shorter = Math.min(candidate.length, wanted.length);
    const longer = Math.max(candidate.length, wanted.length);
    const contains =
      shorter >= 3 && shorter * 2 >= longer && (candidate.includes(wanted) || wanted.includes(candidate));
    const distance = editDistance(candidate, wanted);
    const score = contains || distance <= (wanted.length <= 5 ? 1 : 2) ? distance : undefined;
    if (score !== undefined && score < bestScore) {
      best = identifier;
      bestScore = score;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}
