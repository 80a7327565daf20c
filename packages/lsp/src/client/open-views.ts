/**
 * Per open document, a value computed from its synced text (its `TextView`), kept while that
 * text is current: computed again when the text changes, and dropped when the document is closed
 * ({@link forget}), so the map holds only open documents.
 */
export class OpenViews<V> {
  private readonly entries = new Map<string, { text: string; view: V }>();

  /** The value for `uri` at `text`, made by `make` when not known for that text. */
  get(uri: string, text: string, make: (text: string) => V): V {
    const known = this.entries.get(uri);
    if (known?.text === text) return known.view;
    const view = make(text);
    this.entries.set(uri, { text, view });
    return view;
  }

  /** Drops `uri`'s entry (the document was closed). */
  forget(uri: string): void {
    this.entries.delete(uri);
  }

  /** How many documents have an entry. */
  get size(): number {
    return this.entries.size;
  }
}
