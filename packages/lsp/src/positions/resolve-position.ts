import { LspError } from "../errors/lsp-error.js";

/** A position found from a line and a symbol substring. */
export interface ResolvedPosition {
  /** 0-based line and UTF-16 column, as LSP wants them. */
  readonly line: number;
  readonly character: number;
  /** Length of the matched symbol, in UTF-16 units. */
  readonly length: number;
  /** Set when the symbol was not on the asked line and a nearby line was used instead. */
  readonly note?: string;
}

/** How many lines either side of the asked line are searched when the symbol is not on it. */
export const nearbyLines = 3;

const identifierChar = /[\p{L}\p{N}_$]/u;

function occurrences(text: string, symbol: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(symbol); at !== -1; at = text.indexOf(symbol, at + 1)) found.push(at);
  return found;
}

function isWhole(text: string, at: number, length: number): boolean {
  const before = at > 0 ? text[at - 1]! : "";
  const after = text[at + length] ?? "";
  return !identifierChar.test(before) && !identifierChar.test(after);
}

/** The best column of `symbol` in `text`: the first whole-identifier occurrence, else the first. */
function bestColumn(text: string, symbol: string): number | undefined {
  const all = occurrences(text, symbol);
  return all.find((at) => isWhole(text, at, symbol.length)) ?? all[0];
}

/**
 * Turns a 1-based `line` plus a `symbol` substring into an LSP position. Prefers a whole-identifier
 * occurrence; when the symbol is not on that line, looks up to {@link nearbyLines} lines either
 * side (nearest first) and says which line was used; otherwise throws `LSP_SYMBOL_NOT_FOUND`
 * quoting the line's text. `text` may be given already split into lines.
 */
export function resolvePosition(
  text: string | readonly string[],
  line: number,
  symbol: string,
  display: string,
): ResolvedPosition {
  const lines = typeof text === "string" ? text.split(/\r?\n/) : text;
  if (symbol === "") {
    throw new LspError({ code: "LSP_BAD_ARGUMENTS", message: "symbol must not be empty" });
  }
  if (!Number.isInteger(line) || line < 1 || line > lines.length) {
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `line ${line} is outside ${display}, which has ${lines.length} lines (lines are 1-based)`,
    });
  }
  const index = line - 1;
  const column = bestColumn(lines[index]!, symbol);
  if (column !== undefined) return { line: index, character: column, length: symbol.length };
  for (let distance = 1; distance <= nearbyLines; distance++) {
    for (const candidate of [index - distance, index + distance]) {
      const candidateText = lines[candidate];
      if (candidateText === undefined) continue;
      const near = bestColumn(candidateText, symbol);
      if (near !== undefined) {
        return {
          line: candidate,
          character: near,
          length: symbol.length,
          note: `'${symbol}' is not on line ${line}; used line ${candidate + 1}: ${candidateText.trim()}`,
        };
      }
    }
  }
  const suggestion = closestIdentifier(lines[index]!, symbol);
  throw new LspError({
    code: "LSP_SYMBOL_NOT_FOUND",
    message: `symbol '${symbol}' is not on line ${line} of ${display} (nor within ${nearbyLines} lines of it); that line reads: ${JSON.stringify(
      lines[index]!.trim(),
    )}${suggestion ? `; did you mean '${suggestion}'?` : ""}. Give the line number where the symbol appears and a substring of that line.`,
  });
}

function closestIdentifier(text: string, symbol: string): string | undefined {
  const identifiers = text.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
  const lower = symbol.toLowerCase();
  return identifiers.find((identifier) => {
    const candidate = identifier.toLowerCase();
    return candidate.includes(lower) || lower.includes(candidate) || editDistance(candidate, lower) <= 2;
  });
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
