/**
 * What waits while a card is open, in arrival order. An item with a key replaces the one held with
 * the same key (a worker's progress: its latest only); one without a key is always kept.
 */
export class HeldQueue<T> {
  private items: { item: T; key?: string }[] = [];

  /** Holds `item`, in the place of the one held with `key` (which goes to the end). */
  hold(item: T, key?: string): void {
    if (key !== undefined) this.items = this.items.filter((held) => held.key !== key);
    this.items.push(key === undefined ? { item } : { item, key });
  }

  /** Everything held, in order; the queue is empty afterwards. */
  take(): T[] {
    return this.items.splice(0).map((held) => held.item);
  }
}
