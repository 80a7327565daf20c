import { readFileSync, statSync } from "node:fs";

/** Largest file kept; larger ones are read on each scan. */
const fileLimit = 256 * 1024;
/** Most characters kept in all. */
const totalLimit = 64 * 1024 * 1024;
/** Files past this size are not scanned at all. */
const scanLimit = 1_000_000;
/** Files modified this recently (ms) are read again on the next scan. */
const racyMarginMs = 100;

interface Entry {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly text: string;
}

/**
 * Texts of a server root's files for scans by name (which files mention a symbol): a repeated
 * scan reads only the files whose inode, size or times changed (one `stat` per file; the
 * folder watch can lose events when the kernel's queue overflows, so it is not trusted for
 * this). Bounded: small files only, at most 64 M characters in all.
 */
export class RootTexts {
  private readonly texts = new Map<string, Entry>();
  private size = 0;

  /** The text of `path`; undefined when unreadable or too large to scan. */
  text(path: string): string | undefined {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      this.forget(path);
      return undefined;
    }
    const cached = this.texts.get(path);
    if (
      cached !== undefined &&
      cached.ino === stats.ino &&
      cached.size === stats.size &&
      cached.mtimeMs === stats.mtimeMs &&
      cached.ctimeMs === stats.ctimeMs
    ) {
      return cached.text;
    }
    this.forget(path);
    if (stats.size > scanLimit) return undefined;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    // A file changed this close to the read could change again within the same timestamp tick
    // unseen (git's "racily clean" rule): not kept.
    const settled = Date.now() - stats.mtimeMs > racyMarginMs;
    if (settled && text.length <= fileLimit && this.size + text.length <= totalLimit) {
      const { ino, size, mtimeMs, ctimeMs } = stats;
      this.texts.set(path, { ino, size, mtimeMs, ctimeMs, text });
      this.size += text.length;
    }
    return text;
  }

  /** Drops `path` (it changed on disk, or went away). */
  forget(path: string): void {
    const entry = this.texts.get(path);
    if (entry === undefined) return;
    this.texts.delete(path);
    this.size -= entry.text.length;
  }
}
