import { FileChangeType } from "vscode-languageserver-protocol";
import { canonicalPath } from "../files/canonical-path.js";
import type { FileEvent } from "./watched-folders.js";

/**
 * The events of one path, oldest first, as the one change a server that heard none of them
 * needs: created then changed is created, anything then deleted is deleted (a file reported
 * created may have existed before: the watch's first walk had not reached it; a deletion the
 * server did not need is harmless, a lost one is not), deleted then created is changed. Events
 * held back from one flush and taken with the next (see `LanguageClient.flushFileChanges`) are
 * told once per path, in the order each path first changed.
 */
export function mergeFileEvents(events: readonly FileEvent[]): FileEvent[] {
  const merged = new Map<string, FileChangeType>();
  for (const { path, type } of events) {
    const earlier = merged.get(path);
    merged.set(path, earlier === undefined ? type : combine(earlier, type));
  }
  return [...merged].map(([path, type]) => ({ path, type }));
}

/** What `earlier` then `later` amount to. */
function combine(earlier: FileChangeType, later: FileChangeType): FileChangeType {
  if (later === FileChangeType.Deleted) return later;
  if (earlier === FileChangeType.Deleted) return FileChangeType.Changed; // deleted, then there again
  return earlier; // created or changed, then changed (or created again): as first told
}

/**
 * Whether a flush holding back the events of `except` holds back a path's: a file of it, or one
 * of `links` (the root's symlinks) pointing to one (the link's change is that file's, told with it).
 */
export function heldWith(except: ReadonlySet<string>, links: ReadonlySet<string>): (path: string) => boolean {
  if (links.size === 0 || except.size === 0) return (path) => except.has(path);
  const reals = new Set([...except].map((path) => canonicalPath(path)));
  return (path) => except.has(path) || (links.has(path) && reals.has(canonicalPath(path)));
}
