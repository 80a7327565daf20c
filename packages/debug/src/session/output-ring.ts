import { labelOutput, lastLines } from "./output-text.js";

/** One piece of debuggee output. */
export interface OutputEntry {
  /** Position in the stream: read from here on with a cursor. */
  readonly seq: number;
  readonly category: string;
  readonly text: string;
}

/**
 * A bounded ring of the debuggee's output (stdout, stderr, adapter console messages), read by
 * cursor: `read(cursor)` returns what arrived since, and the cursor to pass next time. The oldest
 * entries drop first; a reader whose cursor fell behind is told how many it missed.
 */
export class OutputRing {
  private readonly entries: OutputEntry[] = [];
  private nextSeq = 0;

  constructor(
    private readonly maxEntries = 1000,
    private readonly maxEntryChars = 8192,
  ) {}

  /** The cursor after the newest entry. */
  get end(): number {
    return this.nextSeq;
  }

  push(category: string, text: string): void {
    if (text === "") return;
    const clipped = text.length > this.maxEntryChars ? `${text.slice(0, this.maxEntryChars)}… (cut)\n` : text;
    this.entries.push({ seq: this.nextSeq++, category, text: clipped });
    if (this.entries.length > this.maxEntries) this.entries.shift();
  }

  /** Entries from `cursor` on (default: everything kept), and how many were dropped before it. */
  read(cursor = 0): { entries: OutputEntry[]; dropped: number; next: number } {
    const first = this.entries[0]?.seq ?? this.nextSeq;
    const from = Math.max(cursor, first);
    const dropped = Math.max(0, first - cursor);
    return { entries: this.entries.filter((entry) => entry.seq >= from), dropped, next: this.nextSeq };
  }

  /**
   * The end of the output kept, for launch reports: whole lines of about `maxChars` characters
   * at most, labelled as `output` labels them, after a line that counts the earlier lines left
   * out (with `hint`, where to read them).
   */
  tail(maxChars = 2000, hint?: string): string {
    return lastLines(labelOutput(this.entries).join(""), maxChars, hint);
  }
}
