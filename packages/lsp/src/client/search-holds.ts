/**
 * Which open documents a search opened only for itself (references on clangd opens the files
 * that mention the name) and which are open for their own sake (asked about, written). A
 * document a search opened and another call then asks about is kept; one opened by two searches
 * at once is let go when the second ends.
 *
 * A document let go is parked: left open, so that the next search naming it finds it analysed
 * instead of opening and parsing it again (on clangd, a repeated `references` took 27 ms on Go's
 * runtime/cgo where the raw request takes 0.9 ms). Parked documents are ordered from the least
 * recently searched; those over the caller's bound are to be closed ({@link overflow}), unless
 * a search holds them again or a call asks about them before the close is sent
 * ({@link confirmClose}).
 */
export class SearchHolds {
  private readonly kept = new Set<string>();
  private readonly holds = new Map<string, number>();
  /** Let go by every search, left open; insertion order is the order they were let go in. */
  private readonly parked = new Set<string>();
  /** Unparked by {@link overflow}, to be closed unless held or kept first. */
  private readonly closing = new Set<string>();

  /** One more search holds `uri` (just opened, or parked); false, and no hold, when it is kept. */
  hold(uri: string): boolean {
    if (this.kept.has(uri)) return false;
    this.parked.delete(uri);
    this.closing.delete(uri);
    this.holds.set(uri, (this.holds.get(uri) ?? 0) + 1);
    return true;
  }

  /** True when `uri` is open for its own sake. */
  isKept(uri: string): boolean {
    return this.kept.has(uri);
  }

  /** True when `uri` is open only because a search that ended left it parked. */
  isParked(uri: string): boolean {
    return this.parked.has(uri);
  }

  /** `uri` is open for its own sake: no search closes it. */
  keep(uri: string): void {
    this.kept.add(uri);
    this.holds.delete(uri);
    this.parked.delete(uri);
    this.closing.delete(uri);
  }

  /** Ends one search's hold on `uri`; the last one parks it. */
  release(uri: string): void {
    const holds = this.holds.get(uri);
    if (holds === undefined || this.kept.has(uri)) return;
    if (holds > 1) {
      this.holds.set(uri, holds - 1);
      return;
    }
    this.holds.delete(uri);
    this.parked.add(uri);
  }

  /** Unparks the least recently searched documents beyond `limit`, to be closed (see {@link confirmClose}). */
  overflow(limit: number): string[] {
    const over = Math.max(0, this.parked.size - Math.max(0, limit));
    const out = [...this.parked].slice(0, over);
    for (const uri of out) {
      this.parked.delete(uri);
      this.closing.add(uri);
    }
    return out;
  }

  /**
   * True when `uri`, unparked by {@link overflow}, is to be closed now: no search held it and no
   * call asked about it since (either keeps it open).
   */
  confirmClose(uri: string): boolean {
    return this.closing.delete(uri);
  }

  /** `uri` was closed. */
  forget(uri: string): void {
    this.kept.delete(uri);
    this.holds.delete(uri);
    this.parked.delete(uri);
    this.closing.delete(uri);
  }
}
