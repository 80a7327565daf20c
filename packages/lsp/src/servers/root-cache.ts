import { existsSync, lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { FileTexts, racyMarginOf } from "../files/file-texts.js";
import { lookUpRoot, type FoundMarker, type RootMarkers } from "./find-root.js";

/** One folder's markers as last probed. */
interface FolderEntry {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** Wall-clock time of the probe, in milliseconds. */
  readonly probedAt: number;
  /** Marker name → present; a marker that is a symlink (or could not be lstat'ed) is absent here. */
  readonly markers: Map<string, boolean>;
}

/** Most folders (and, apart, most tested marker files) kept. */
const capacity = 1024;

/**
 * {@link findRoot} with the markers of each folder cached, as cheap to check as one `stat` of
 * the folder per level instead of one `existsSync` per marker per level. A marker created,
 * deleted or renamed changes its folder's mtime and ctime, so an entry is reused only while the
 * folder's inode, mtime and ctime are those seen at the probe and its last change is older than
 * the timestamp granularity. A marker that is a symlink, or lies in a subfolder, is checked on
 * every call (its target can come and go without the folder changing). A workspace marker whose
 * text is tested (Cargo.toml's `[workspace]`) costs one `stat` of the file per call: an edit
 * changes the file's times, not the folder's, so its answer is reused under the same rule on
 * the file's inode, size, mtime and ctime, and the file read again otherwise.
 */
export class RootCache {
  private readonly folders = new Map<string, FolderEntry>();
  /** Workspace markers whose text is tested (a Cargo.toml's `[workspace]`), as last read. */
  private readonly markerTexts = new FileTexts({ capacity });

  /**
   * As {@link findRoot}: the nearest folder holding one of `spec.workspaceMarkers`, else the
   * nearest holding one of `spec.markers`, up to `workingDirectory`.
   */
  find(file: string, spec: RootMarkers, workingDirectory: string): FoundMarker | undefined {
    return lookUpRoot(file, spec, workingDirectory, (directory) => {
      const entry = this.entryOf(directory);
      return {
        has: (marker) => this.present(directory, entry, marker),
        matches: (marker, pattern) => this.textMatches(join(directory, marker), pattern),
      };
    });
  }

  /** Whether `marker` is in `directory`, from its entry when the folder's times can tell. */
  private present(directory: string, entry: FolderEntry | undefined, marker: string): boolean {
    const cached = entry?.markers.get(marker);
    if (cached !== undefined) return cached;
    const path = join(directory, marker);
    // A marker in a subfolder (build/compile_commands.json) changes that subfolder's times,
    // not this one's: it is checked on every call.
    const probed = entry && !marker.includes("/") ? probeMarker(path) : undefined;
    if (probed !== undefined) entry!.markers.set(marker, probed);
    return probed ?? existsSync(path);
  }

  /** {@link textMatches}, the file read again only when it changed (or changed too recently to tell). */
  private textMatches(path: string, pattern: RegExp): boolean {
    // search() ignores a global pattern's lastIndex.
    return (this.markerTexts.tryRead(path)?.text.search(pattern) ?? -1) !== -1;
  }

  /** The folder's entry when it may be trusted (made anew after a change), or undefined. */
  private entryOf(directory: string): FolderEntry | undefined {
    const probedAt = Date.now();
    let stats;
    try {
      stats = statSync(directory, { throwIfNoEntry: false });
    } catch {
      return undefined; // unreadable: every marker is checked as findRoot does
    }
    if (!stats) return undefined;
    const cached = this.folders.get(directory);
    if (
      cached &&
      cached.ino === stats.ino &&
      cached.mtimeMs === stats.mtimeMs &&
      cached.ctimeMs === stats.ctimeMs &&
      // A folder changed this close to the probe could get a marker within the same timestamp
      // tick (a whole second on some filesystems) without its times moving: probed again then
      // (git's "racily clean" rule).
      stats.ctimeMs < cached.probedAt - racyMarginOf(stats.mtimeMs % 1000 === 0 && stats.ctimeMs % 1000 === 0)
    ) {
      return cached;
    }
    const entry: FolderEntry = {
      ino: stats.ino,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      probedAt,
      markers: new Map(),
    };
    remember(this.folders, directory, entry);
    return entry;
  }
}

/** Sets `key` as the newest entry of `cache`, dropping the oldest past {@link capacity}. */
function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > capacity) cache.delete(cache.keys().next().value!);
}

/** Whether a marker is there, when the folder's timestamps can tell (undefined: ask every time). */
function probeMarker(path: string): boolean | undefined {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return false;
    return stats.isSymbolicLink() ? undefined : true;
  } catch {
    return undefined;
  }
}
