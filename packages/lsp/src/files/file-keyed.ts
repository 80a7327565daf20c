import { isAbsolute } from "node:path";
import { canonicalPath } from "./canonical-path.js";

/** The key of a file: its real path (see `canonicalPath`); a key that is no absolute path as it is. */
function fileKey(key: string): string {
  return isAbsolute(key) ? canonicalPath(key) : key;
}

/**
 * A map keyed by file, a file reached through a symlinked folder or file being one key (its
 * real path) whichever path it is asked by. Keys that are no absolute paths (a server's key)
 * are kept as they are. Iterated, it gives the real paths.
 */
export class FileKeyedMap<V> extends Map<string, V> {
  override get(key: string): V | undefined {
    return super.get(fileKey(key));
  }

  override set(key: string, value: V): this {
    return super.set(fileKey(key), value);
  }

  override has(key: string): boolean {
    return super.has(fileKey(key));
  }

  override delete(key: string): boolean {
    return super.delete(fileKey(key));
  }
}

/** A set of files, one entry per file however it is reached (see {@link FileKeyedMap}). */
export class FileKeyedSet extends Set<string> {
  override add(key: string): this {
    return super.add(fileKey(key));
  }

  override has(key: string): boolean {
    return super.has(fileKey(key));
  }

  override delete(key: string): boolean {
    return super.delete(fileKey(key));
  }
}
