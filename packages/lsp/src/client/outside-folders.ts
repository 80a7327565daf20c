import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

/** Most folders outside the root watched per server (see {@link OutsideFolders}). */
export const outsideFoldersLimit = 500;

/**
 * Folders outside a server's root whose files the server reads all the same (tsserver: a
 * package a solution-style tsconfig's `references` name, its sources read in place of its
 * build), each watched on its own (not its subfolders): the root's folder watch does not see
 * them, and a `git checkout` there went unseen. The files changed since the last
 * {@link OutsideFolders.take} are kept, in the order they changed. Past
 * {@link outsideFoldersLimit} folders, later ones are not watched (their changes are left to the
 * server's own watch).
 */
export class OutsideFolders {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly changed = new Set<string>();
  private closed = false;

  /** Watches `folders` (those already watched, or past the limit, are left as they are). */
  add(folders: Iterable<string>): void {
    for (const folder of folders) {
      if (this.closed || this.watchers.size >= outsideFoldersLimit) return;
      if (this.watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (typeof name === "string" && name !== "") this.changed.add(join(folder, name));
        });
        // A folder removed (or unreadable) is no longer watched; a later listing adds it again.
        watcher.on("error", () => this.forget(folder));
        this.watchers.set(folder, watcher);
      } catch {
        // Gone or unreadable now: not watched.
      }
    }
  }

  /** The files changed in the watched folders since the last call. */
  take(): string[] {
    const files = [...this.changed];
    this.changed.clear();
    return files;
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private forget(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
  }
}
