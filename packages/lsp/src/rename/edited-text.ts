import type { Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { lineSpans } from "../positions/line-ends.js";
import { applyTextEdits } from "./apply-workspace-edit.js";

/** One edit of a file: the offsets it replaced in the text before, and those of its text after. */
interface Span {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
  readonly newText: string;
}

/**
 * A file's text before and after a rename's text edits, with where each edit landed: positions
 * in the text after are told apart as edit sites or not, and the others are mapped back to the
 * text before (they are text the edit left as it was). Positions are LSP's (0-based line,
 * UTF-16 character).
 */
export class EditedText {
  readonly before: string;
  readonly after: string;
  private readonly spans: Span[];
  private readonly oldLines: ReturnType<typeof lineSpans>;
  private readonly newLines: ReturnType<typeof lineSpans>;

  constructor(before: string, edits: readonly TextEdit[]) {
    this.before = before;
    this.after = applyTextEdits(before, edits);
    this.oldLines = lineSpans(before);
    this.newLines = lineSpans(this.after);
    const located = edits
      .map((edit) => ({
        start: offsetOf(this.oldLines, before, edit.range.start),
        end: offsetOf(this.oldLines, before, edit.range.end),
        newText: edit.newText,
      }))
      .sort((a, b) => a.start - b.start || a.end - b.end);
    let shift = 0;
    this.spans = located.map(({ start, end, newText }) => {
      const newStart = start + shift;
      const span = { oldStart: start, oldEnd: end, newStart, newEnd: newStart + newText.length, newText };
      shift += newText.length - (end - start);
      return span;
    });
  }

  /** How many edits the file has; an edit is named by its index, in text order. */
  get edits(): number {
    return this.spans.length;
  }

  /** The edit that replaced the text at `position` (before), or -1. */
  editAt(position: Position): number {
    const offset = offsetOf(this.oldLines, this.before, position);
    return this.spans.findIndex((s) => s.oldStart <= offset && offset <= s.oldEnd);
  }

  /**
   * Where `name` is (after) in the text edit `index` wrote: its last occurrence there (a
   * shorthand property `{ count }` is written `count: total`), else the edit's start.
   */
  nameIn(index: number, name: string): Position {
    const span = this.spans[index]!;
    return positionOf(this.newLines, span.newStart + Math.max(0, span.newText.lastIndexOf(name)));
  }

  /** Where edit `index` started in the text before. */
  editStart(index: number): Position {
    return positionOf(this.oldLines, this.spans[index]!.oldStart);
  }

  /** The edit that wrote the text at `position` (after), or -1: text the edit left as it was. */
  editOf(position: Position): number {
    const offset = offsetOf(this.newLines, this.after, position);
    return this.spans.findIndex((s) => s.newStart <= offset && offset < Math.max(s.newEnd, s.newStart + 1));
  }

  /**
   * The first edit whose text (after) `range` (after) overlaps or touches at its end, or -1: a
   * range starting in an edit, ending in or right at the end of one, or holding one whole (a
   * call or a statement flagged as a whole) is at an edited place.
   */
  editIn(range: Range): number {
    const start = offsetOf(this.newLines, this.after, range.start);
    const end = Math.max(start, offsetOf(this.newLines, this.after, range.end));
    return this.spans.findIndex((s) => start < Math.max(s.newEnd, s.newStart + 1) && s.newStart <= end);
  }

  /** Whether the text at `position` (after) starts with `name`. */
  reads(position: Position, name: string): boolean {
    return this.after.startsWith(name, offsetOf(this.newLines, this.after, position));
  }

  /** The position (before) of the text at `position` (after), which no edit wrote. */
  toBefore(position: Position): Position {
    const offset = offsetOf(this.newLines, this.after, position);
    let shift = 0;
    for (const span of this.spans) {
      if (span.newStart > offset) break;
      shift = span.oldEnd - span.newEnd;
    }
    return positionOf(this.oldLines, offset + shift);
  }

  /** The text of 0-based `line` before the edit, or after it with `after`. */
  lineText(line: number, after = false): string {
    const lines = after ? this.newLines : this.oldLines;
    const text = after ? this.after : this.before;
    return text.slice(lines.starts[line] ?? text.length, lines.ends[line] ?? text.length);
  }
}

/**
 * The text edits of a workspace edit by file uri, or undefined when it does more than edit text
 * (creates, moves or deletes files) or edits one file in two steps: the check in memory takes
 * plain text edits only.
 */
export function textEditsByUri(edit: WorkspaceEdit): Map<string, TextEdit[]> | undefined {
  const byUri = new Map<string, TextEdit[]>();
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if (!("textDocument" in change)) return undefined;
      if (byUri.has(change.textDocument.uri)) return undefined;
      byUri.set(
        change.textDocument.uri,
        change.edits.map((e) => ("newText" in e ? e : { range: e.range, newText: e.snippet.value })),
      );
    }
    return byUri;
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) byUri.set(uri, edits);
  return byUri;
}

function offsetOf(lines: ReturnType<typeof lineSpans>, text: string, position: Position): number {
  const start = lines.starts[position.line];
  const end = lines.ends[position.line];
  if (start === undefined || end === undefined) return text.length;
  return Math.min(start + position.character, end);
}

function positionOf(lines: ReturnType<typeof lineSpans>, offset: number): Position {
  // Lines are few enough per file for a binary search to be all it takes.
  let low = 0;
  let high = lines.starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lines.starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low, character: offset - lines.starts[low]! };
}
