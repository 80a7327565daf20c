import { isAdapterEcho } from "./adapter-echo.js";
import { exitTail } from "./output-text.js";

/** One line of debuggee output (or a piece of one, see {@link OutputRing}). */
export interface OutputEntry {
  /** Position in the stream, counted in entries: read from here on with a cursor. */
  readonly seq: number;
  readonly category: string;
  /** One line with its newline, or without one when the line goes on in a later entry. */
  readonly text: string;
}

/** A point in the stream (see {@link OutputRing.mark}). */
export interface OutputMark {
  /** The cursor after the newest entry then. */
  readonly end: number;
  /** The stream's length then, in characters. */
  readonly chars: number;
}

/**
 * A bounded ring of the debuggee's output (stdout, stderr, adapter console messages), read by
 * cursor: `read(cursor)` returns what arrived since, and the cursor to pass next time. Each chunk
 * the adapter sends is split into lines on arrival, one entry each (a line longer than
 * `maxLineChars` into pieces of that size), so that a reader can stop and go on at any line,
 * however big the chunks were. The newest entry, while its line is open (no newline yet), takes
 * the rest of the line when it comes from the same stream: a reader must read it again (see
 * `formatOutput`). The oldest entries drop first, when more than `maxLines` entries or `maxChars`
 * characters are kept; a reader whose cursor fell behind is told how many it missed. Line ends
 * are kept as LF (a CRLF loses its CR), and adapter console lines that only repeat what the tool
 * says (see {@link isAdapterEcho}) are not kept.
 */
export class OutputRing {
  // Kept entries are entries[head..]; dropped ones are cut off the array in batches.
  private entries: OutputEntry[] = [];
  // Where each entry starts in the stream, in characters (beside `entries`, index for index).
  private starts: number[] = [];
  private head = 0;
  private chars = 0;
  private streamChars = 0;
  private nextSeq = 0;

  constructor(
    private readonly maxLines = 200_000,
    private readonly maxLineChars = 8192,
    private readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** The cursor after the newest entry. */
  get end(): number {
    return this.nextSeq;
  }

  /** Where the output stands now: {@link cursorSince} finds what arrived after it. */
  mark(): OutputMark {
    return { end: this.nextSeq, chars: this.streamChars };
  }

  /**
   * The cursor that reads what arrived after `mark`: the newest entry then when its line was
   * open and the new output went on in it (no new seq marks that text), else `mark.end`.
   */
  cursorSince(mark: OutputMark): number {
    if (this.streamChars === mark.chars || mark.end === 0) return mark.end;
    const first = this.entries[this.head]?.seq ?? this.nextSeq;
    const at = this.head + mark.end - 1 - first;
    const newest = at >= this.head ? this.entries[at] : undefined;
    // Newest at the mark, it ended at `mark.chars`: past that, it took new text.
    return newest && this.starts[at]! + newest.text.length > mark.chars ? mark.end - 1 : mark.end;
  }

  push(category: string, text: string): void {
    // lldb-dap's program output comes through a terminal: CRLF line ends.
    for (const line of text.replace(/\r\n/g, "\n").split(/(?<=\n)/)) {
      if (isAdapterEcho(category, line)) continue;
      let at = 0;
      // A line the newest entry left open goes on in it (print() writes its newline apart).
      const last = this.entries.at(-1);
      if (
        last &&
        this.entries.length > this.head &&
        last.category === category &&
        !last.text.endsWith("\n")
      ) {
        at = Math.min(line.length, this.maxLineChars - last.text.length);
        if (at > 0) {
          // A CR that ended the last chunk and the LF that starts this one are one line end.
          const joined = last.text + line.slice(0, at);
          const merged = joined.endsWith("\r\n") ? `${joined.slice(0, -2)}\n` : joined;
          this.entries[this.entries.length - 1] = { ...last, text: merged };
          this.chars += merged.length - last.text.length;
          this.streamChars += merged.length - last.text.length;
        }
      }
      for (; at < line.length; at += this.maxLineChars) {
        const piece = line.slice(at, at + this.maxLineChars);
        this.entries.push({ seq: this.nextSeq++, category, text: piece });
        this.starts.push(this.streamChars);
        this.chars += piece.length;
        this.streamChars += piece.length;
      }
    }
    while (this.entries.length - this.head > this.maxLines || this.chars > this.maxChars) {
      this.chars -= this.entries[this.head]!.text.length;
      this.head++;
    }
    // Shifting one at a time would copy the array per line; cut once half of it is dropped.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.starts = this.starts.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Entries from `cursor` on (default: everything kept), at most `limit` of them, and how many
   * were dropped before it.
   */
  read(cursor = 0, limit = Infinity): { entries: OutputEntry[]; dropped: number; next: number } {
    const first = this.entries[this.head]?.seq ?? this.nextSeq;
    const from = Math.min(Math.max(cursor, first), this.nextSeq);
    const dropped = Math.max(0, first - cursor);
    const at = this.head + from - first;
    return { entries: this.entries.slice(at, at + limit), dropped, next: this.nextSeq };
  }

  /** The characters kept from entry `seq` (a cursor) to the end. */
  charsFrom(seq: number): number {
    const first = this.entries[this.head]?.seq ?? this.nextSeq;
    if (seq >= this.nextSeq) return 0;
    if (seq <= first) return this.chars;
    return this.streamChars - this.starts[this.head + seq - first]!;
  }

  /**
   * The end of the output kept, for launch reports: whole lines of about `maxChars` characters
   * at most, labelled as `output` labels them, after a line that counts the earlier lines left
   * out (with `hint`, where to read them); when the program failed (`failed`), stderr's last
   * lines too if later stdout pushed them out (see {@link exitTail}).
   */
  tail(maxChars = 2000, hint?: string, failed = true): string {
    return exitTail(this.read().entries, maxChars, hint, failed);
  }
}
