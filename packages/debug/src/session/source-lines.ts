import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";

/** The largest source file read to show a line of it, in bytes. */
export const largestSourceBytes = 8 * 1024 * 1024;

/**
 * The lines of a regular file of at most {@link largestSourceBytes}, or undefined. Opened without
 * blocking and checked on the open descriptor: a path that is (or was swapped for) a FIFO or a
 * device would otherwise block this process's event loop, every run in it, on a synchronous read.
 */
function readSource(path: string): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > largestSourceBytes) return undefined;
    return readFileSync(fd, "utf8").split(/\r?\n/);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
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

/** A path shown relative to the working directory when it lies inside it. */
export function displayPath(path: string | undefined, root: string): string {
  if (!path) return "<no source>";
  if (!isAbsolute(path)) return path;
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
