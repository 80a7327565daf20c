import { existsSync, lstatSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "./find-root.js";

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

/**
 * A folder changed this close to our probe could get a marker within the same timestamp tick
 * without its mtime changing; its entry is then probed again (git's "racily clean" rule).
 */
const racyMarginMs = 100;

/** Most folders kept. */
const capacity = 1024;

/**
 * {@link findRoot} with the markers of each folder cached, as cheap to check as one `stat` of
 * the folder per level instead of one `existsSync` per marker per level. A marker created,
 * deleted or renamed changes its folder's mtime and ctime, so an entry is reused only while the
 * folder's inode, mtime and ctime are those seen at the probe and its last change is older than
 * the timestamp granularity. A marker that is a symlink, or lies in a subfolder, is checked on
 * every call (its target can come and go without the folder changing).
 */
export class RootCache {
  private readonly folders = new Map<string, FolderEntry>();

  /** As {@link findRoot}: the nearest folder holding one of `markers`, up to `workingDirectory`. */
  find(
    file: string,
    markers: readonly string[],
    workingDirectory: string,
  ): { root: string; marker: string } | undefined {
    let directory = dirname(file);
    while (isInside(workingDirectory, directory)) {
      const marker = this.markerIn(directory, markers);
      if (marker !== undefined) return { root: directory, marker };
      if (directory === workingDirectory) break;
      const parent = dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
    return undefined;
  }

  /** The first of `markers` present in `directory`. */
  private markerIn(directory: string, markers: readonly string[]): string | undefined {
    const entry = this.entryOf(directory);
    for (const marker of markers) {
      let present = entry?.markers.get(marker);
      if (present === undefined) {
        const path = join(directory, marker);
        // A marker in a subfolder (build/compile_commands.json) changes that subfolder's times,
        // not this one's: it is checked on every call.
        const probed = entry && !marker.includes("/") ? probeMarker(path) : undefined;
        if (probed !== undefined) entry!.markers.set(marker, probed);
        present = probed ?? existsSync(path);
      }
      if (present) return marker;
    }
    return undefined;
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
      stats.ctimeMs < cached.probedAt - racyMarginMs
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
    this.folders.delete(directory);
    this.folders.set(directory, entry);
    if (this.folders.size > capacity) this.folders.delete(this.folders.keys().next().value!);
    return entry;
  }
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
