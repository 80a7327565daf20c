import { readFileSync, statSync } from "node:fs";

/** Largest file kept; larger ones are read on each scan. */
const fileLimit = 256 * 1024;
/** Most characters kept in all. */
const totalLimit = 64 * 1024 * 1024;
/** Files past this size are not scanned at all. */
const scanLimit = 1_000_000;

/**
 * Texts of a server root's files for scans by name (which files mention a symbol), kept until
 * the root's folder watch reports a change to the file ({@link forget}), so a repeated scan
 * reads only what changed. Bounded: small files only, and at most 64 M characters in all.
 */
export class RootTexts {
  private readonly texts = new Map<string, string>();
  private size = 0;

  /** The text of `path`, from the cache or the disk; undefined when unreadable or too large to scan. */
  text(path: string): string | undefined {
    const cached = this.texts.get(path);
    if (cached !== undefined) return cached;
    let text: string;
    try {
      if (statSync(path).size > scanLimit) return undefined;
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    if (text.length <= fileLimit && this.size + text.length <= totalLimit) {
      this.texts.set(path, text);
      this.size += text.length;
    }
    return text;
  }

  /** Drops `path` (it changed on disk, or went away). */
  forget(path: string): void {
    const text = this.texts.get(path);
    if (text === undefined) return;
    this.texts.delete(path);
    this.size -= text.length;
  }

  /** Drops everything (the watch could not say what changed). */
  clear(): void {
    this.texts.clear();
    this.size = 0;
  }
}
