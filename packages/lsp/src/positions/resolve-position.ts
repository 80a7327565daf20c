import { LspError } from "../errors/lsp-error.js";
import { closestIdentifier } from "./closest-identifier.js";
import { splitLines } from "./line-ends.js";
import { spellingsIn } from "./normalized-match.js";
import { focusOf } from "./symbol-focus.js";
import { containingIdentifier, occurrences, wholeColumns } from "./whole-occurrences.js";

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
 * The name an answer about `position` is for, as its header says it: the longer identifier used
 * when the symbol was only part of one (`lo` on a line holding `load`: `load`, as the position's
 * note says), else the symbol as asked (`config.port`, `= count`).
 */
export function answeredName(symbol: string, position: ResolvedPosition): string {
  return position.identifier.length > position.length ? position.identifier : symbol;
}
