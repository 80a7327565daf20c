/** Inserted text, or a line break that starts a line coming from `line` of the cell (undefined: none). */
export type Piece = string | { readonly line: number | undefined };

/** Replaces `code[start, end)` with `insert`; an insertion has `start === end`. */
export interface SourceEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: readonly Piece[];
}

/** A source after edits, line by line, with the cell line (1-based) each one comes from. */
export interface EditedLines {
  readonly lines: string[];
  readonly origin: (number | undefined)[];
}

/**
 * Applies non-overlapping `edits` to `code`. Text between the edits keeps its lines and columns;
 * a break inserted where the current line holds only blanks reuses that line instead of leaving
 * an empty one, so an edit at a line's start adds no line.
 */
export function applyEdits(code: string, edits: readonly SourceEdit[]): EditedLines {
  const lines = [""];
  const origin: (number | undefined)[] = [1];
  let cellLine = 1;
  const append = (text: string) => {
    lines[lines.length - 1] += text;
  };
  const original = (text: string) => {
    const [first = "", ...rest] = text.split("\n");
    append(first);
    for (const line of rest) {
      cellLine++;
      lines.push(line);
      origin.push(cellLine);
    }
  };
  let position = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    original(code.slice(position, edit.start));
    for (const piece of edit.insert) {
      if (typeof piece === "string") {
        append(piece);
      } else if ((lines[lines.length - 1] ?? "").trim() === "") {
        lines[lines.length - 1] = "";
        origin[origin.length - 1] = piece.line;
      } else {
        lines.push("");
        origin.push(piece.line);
      }
    }
    cellLine += code.slice(edit.start, edit.end).split("\n").length - 1;
    position = edit.end;
  }
  original(code.slice(position));
  return { lines, origin };
}

/** The 1-based line and 0-based column of `offset` in `code`. */
export function position(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart };
}

/**
 * Pieces that put the cell's text from `offset` on a line of its own at its own column, after
 * text inserted before it on that line; none when the rest of that line is blank.
 */
export function resumeAt(code: string, offset: number): Piece[] {
  const lineEnd = code.indexOf("\n", offset);
  if (code.slice(offset, lineEnd === -1 ? code.length : lineEnd).trim() === "") return [];
  const { line, column } = position(code, offset);
  return [{ line }, " ".repeat(column)];
}

/**
 * The lines of `code` that `ranges` (sorted, not overlapping) span, holding only the ranges' text,
 * each at its own column (blanks before it), with the cell line each comes from. Lines no range
 * touches are left out; a range's own lines are all kept, blank ones too (a template literal's).
 */
export function rangeLines(
  code: string,
  ranges: readonly { readonly start: number; readonly end: number }[],
): EditedLines {
  const lines: string[] = [];
  const origin: (number | undefined)[] = [];
  for (const { start, end } of ranges) {
    const { line, column } = position(code, start);
    const [first = "", ...rest] = code.slice(start, end).split("\n");
    if (origin.at(-1) === line) lines[lines.length - 1] = (lines.at(-1) ?? "").padEnd(column) + first;
    else {
      lines.push(" ".repeat(column) + first);
      origin.push(line);
    }
    rest.forEach((text, index) => {
      lines.push(text);
      origin.push(line + index + 1);
    });
  }
  return { lines, origin };
}
