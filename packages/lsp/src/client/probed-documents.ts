/**
 * The documents a rename's clash check has sent edited text of (a probe: the edit tried on the
 * server in memory), until it has set them back to the disk's text. Another call reaching such a
 * document meanwhile waits for the probe to end ({@link settled}) instead of sending the disk's
 * text over the probe (which leaves the check unchecked) or asking the server while it holds the
 * probe's text (an answer about an edit that was never written).
 *
 * A probe ends when its owner calls the function {@link begin} returned, or after `maxMs` at
 * the latest: nobody waits past that, whatever the owner does.
 */
export class ProbedDocuments {
  private readonly probes = new Map<string, Promise<void>>();

  /** Marks `uris` probed until the returned function is called, or for `maxMs` at most. */
  begin(uris: readonly string[], maxMs: number): () => void {
    let resolve!: () => void;
    const ended = new Promise<void>((settle) => {
      resolve = settle;
    });
    const end = (): void => {
      clearTimeout(timer);
      for (const uri of uris) if (this.probes.get(uri) === ended) this.probes.delete(uri);
      resolve();
    };
    const timer = setTimeout(end, maxMs);
    timer.unref?.();
    for (const uri of uris) this.probes.set(uri, ended);
    return end;
  }

  /** The documents a probe holds now. */
  held(): string[] {
    return [...this.probes.keys()];
  }

  /** Settles when no probe holds `uri`; undefined (nothing to wait for) when none does now. */
  settled(uri: string): Promise<void> | undefined {
    if (this.probes.size === 0) return undefined;
    const probe = this.probes.get(uri);
    if (probe === undefined) return undefined;
    // A later probe of the same document (another rename's) is waited for too.
    return probe.then(() => this.settled(uri));
  }
}
