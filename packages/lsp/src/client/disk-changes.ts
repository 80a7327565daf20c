import { heldWith, mergeFileEvents } from "./merge-file-events.js";
import type { FileEvent } from "./watched-folders.js";

/** Most changes on disk remembered (see {@link DiskChanges.since}). */
export const diskChangesKept = 1_000;

/**
 * What a client remembers of the changes on disk its folder watch told: the changes to files of
 * its server's languages, counted and bounded (for {@link DiskChanges.since}), and the events a
 * flush held back until its next call (see `LanguageClient.flushFileChanges`).
 */
export class DiskChanges {
  /** Changes on disk to files of this server's languages (see {@link since}). */
  private count = 0;
  private readonly changes: { count: number; path: string }[] = [];
  /** Changes on disk held back by `LanguageClient.flushFileChanges` until its next call. */
  private readonly heldBack: FileEvent[] = [];

  /** True when a flush held back changes for the next one. */
  holding(): boolean {
    return this.heldBack.length > 0;
  }

  /**
   * The events to tell now: those held back last time and `fresh` (the watch's new ones), one
   * per path. Those of `except` (with the `links` pointing to them, see `heldWith`) are held
   * back until the next call instead.
   */
  release(
    fresh: readonly FileEvent[],
    except: ReadonlySet<string> | undefined,
    links: ReadonlySet<string>,
  ): FileEvent[] {
    // Held back last time and changed again since: one event per path.
    const taken = mergeFileEvents([...this.heldBack.splice(0), ...fresh]);
    const held = except && heldWith(except, links);
    const events = held ? taken.filter((event) => !held(event.path)) : taken;
    if (held) this.heldBack.push(...taken.filter((event) => held(event.path)));
    return events;
  }

  /** Counts the changes on disk to files of this server's languages (see {@link since}). */
  mark(): number {
    return this.count;
  }

  /**
   * The files of this server's languages that changed on disk after `mark` (see {@link mark}),
   * each once, as the folder watch told; undefined when that is no longer known (the record is
   * bounded) or the watch does not cover the root (`complete` false).
   */
  since(mark: number, complete: boolean): string[] | undefined {
    if (!complete) return undefined;
    if (this.count === mark) return [];
    const oldest = this.changes[0];
    if (!oldest || oldest.count > mark + 1) return undefined;
    const paths = new Set<string>();
    for (const change of this.changes) if (change.count > mark) paths.add(change.path);
    return [...paths];
  }

  /** Records a change on disk to a file of this server's languages. */
  note(path: string): void {
    this.count += 1;
    this.changes.push({ count: this.count, path });
    if (this.changes.length > diskChangesKept) this.changes.shift();
  }
}
