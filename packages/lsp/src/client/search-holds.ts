/**
 * Which open documents a search opened only for itself (references on clangd opens the files
 * that mention the name) and may close again, and which are open for their own sake (asked
 * about, written) and stay. A document a search opened and another call then asks about is
 * kept; one opened by two searches at once is closed when the second ends.
 */
export class SearchHolds {
  private readonly kept = new Set<string>();
  private readonly holds = new Map<string, number>();

  /** One more search holds `uri` (just opened); false, and no hold, when it is kept. */
  hold(uri: string): boolean {
    if (this.kept.has(uri)) return false;
    this.holds.set(uri, (this.holds.get(uri) ?? 0) + 1);
    return true;
  }

  /** True when `uri` is open for its own sake. */
  isKept(uri: string): boolean {
    return this.kept.has(uri);
  }

  /** `uri` is open for its own sake: no search closes it. */
  keep(uri: string): void {
    this.kept.add(uri);
    this.holds.delete(uri);
  }

  /** Ends one search's hold on `uri`; true when that was the last and `uri` is to be closed. */
  release(uri: string): boolean {
    if (this.kept.has(uri)) return false;
    const holds = (this.holds.get(uri) ?? 0) - 1;
    if (holds > 0) {
      this.holds.set(uri, holds);
      return false;
    }
    return this.holds.delete(uri);
  }

  /** `uri` was closed. */
  forget(uri: string): void {
    this.kept.delete(uri);
    this.holds.delete(uri);
  }
}
