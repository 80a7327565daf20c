import { readFileSync, statSync } from "node:fs";

/** A file's text and its lines (split on first use). */
export interface FileText {
  readonly text: string;
  /** The lines, without their line ends (split on first call, then shared). */
  readonly lines: () => readonly string[];
}

interface Entry {
  readonly key: string;
  readonly text: string;
  /** Wall-clock time of the read, in milliseconds. */
  readonly readAt: number;
  lines?: readonly string[];
}

/**
 * A file modified this close to our read could be modified again within the same timestamp
 * tick (Linux takes file times from a coarse clock, a few milliseconds per tick) without its
 * mtime changing; such an entry is never reused (git's "racily clean" rule).
 */
const racyMarginMs = 100;

/** Most files kept. */
const capacity = 256;

/**
 * Text of files read for navigation, reused while the file's identity (inode, size, mtime and
 * ctime in nanoseconds) is unchanged and its last change is older than the timestamp
 * granularity, so repeated questions about a file cost one `stat` instead of a read and a split.
 */
export class FileTexts {
  private readonly entries = new Map<string, Entry>();

  /** The current text of `path` (throws as `readFileSync` does). */
  read(path: string): FileText {
    return this.load(path, false);
  }

  /** Reads `path` from disk whatever the cache holds, and caches it (checking a write). */
  reread(path: string): FileText {
    return this.load(path, true);
  }

  private load(path: string, force: boolean): FileText {
    const readAt = Date.now();
    const stats = statSync(path, { bigint: true });
    const key = `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
    const cached = this.entries.get(path);
    // A write sets mtime and ctime to the same coarse time; mtime alone also covers a file whose
    // mtime was set back (its ctime, in the key, then changes).
    const changedAt = Number(stats.mtimeNs) / 1e6;
    if (!force && cached?.key === key && changedAt < cached.readAt - racyMarginMs) return view(cached);
    const entry: Entry = { key, text: readFileSync(path, "utf8"), readAt };
    this.entries.delete(path);
    this.entries.set(path, entry);
    if (this.entries.size > capacity) this.entries.delete(this.entries.keys().next().value!);
    return view(entry);
  }
}

function view(entry: Entry): FileText {
  return {
    text: entry.text,
    lines: () => (entry.lines ??= entry.text.split(/\r?\n/)),
  };
}
