import { isAbsolute, relative } from "node:path";
import { readRegularFileSync } from "@tools/registry";

/** The largest source file read to show a line of it, in bytes. */
export const largestSourceBytes = 8 * 1024 * 1024;

/**
 * The lines of a regular file of at most {@link largestSourceBytes}, or undefined: a path that
 * is (or was swapped for) a FIFO or a device is refused, not read (the synchronous read would
 * block this process's event loop, every run in it).
 */
function readSource(path: string): string[] | undefined {
  try {
    return readRegularFileSync(path, largestSourceBytes).toString("utf8").split(/\r?\n/);
  } catch {
    return undefined;
  }
}

const cache = new Map<string, { lines: string[] | undefined }>();

/** The text of a 1-based line of a source file, trimmed and capped at 200 characters. */
export function sourceLine(path: string | undefined, line: number | undefined): string | undefined {
  if (!path || !line) return undefined;
  let entry = cache.get(path);
  if (!entry) {
    entry = { lines: readSource(path) };
    if (cache.size > 200) cache.clear();
    cache.set(path, entry);
  }
  const text = entry.lines?.[line - 1]?.trim();
  return text === undefined ? undefined : text.slice(0, 200);
}

/** Drops cached file contents (after a resume the program may have been edited meanwhile). */
export function forgetSourceLines(): void {
  cache.clear();
}

/** `path` relative to `root` when it lies below it; undefined otherwise. */
export function relativeInside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
}

/** A path shown relative to the working directory when it lies inside it. */
export function displayPath(path: string | undefined, root: string): string {
  if (!path) return "<no source>";
  if (!isAbsolute(path)) return path;
  return relativeInside(root, path) ?? path;
}
