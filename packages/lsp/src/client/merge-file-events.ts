import { FileChangeType } from "vscode-languageserver-protocol";
import type { FileEvent } from "./watched-folders.js";

/**
 * The events of one path, oldest first, as the one change a server that heard none of them
 * needs: created then changed is created, created then deleted is nothing, deleted then created
 * is changed, changed then deleted is deleted. Events held back from one flush and taken with
 * the next (see `LanguageClient.flushFileChanges`) are told once per path, in the order each
 * path first changed.
 */
export function mergeFileEvents(events: readonly FileEvent[]): FileEvent[] {
  const merged = new Map<string, FileChangeType | undefined>();
  for (const { path, type } of events) {
    if (!merged.has(path)) {
      merged.set(path, type);
      continue;
    }
    merged.set(path, combine(merged.get(path), type));
  }
  const result: FileEvent[] = [];
  for (const [path, type] of merged) if (type !== undefined) result.push({ path, type });
  return result;
}

/** What `earlier` then `later` amount to; undefined: nothing (made and removed unseen). */
function combine(earlier: FileChangeType | undefined, later: FileChangeType): FileChangeType | undefined {
  if (earlier === undefined) return later; // nothing so far: the file did not exist for the server
  if (later === FileChangeType.Deleted) return earlier === FileChangeType.Created ? undefined : later;
  if (earlier === FileChangeType.Deleted) return FileChangeType.Changed; // deleted, then there again
  return earlier; // created or changed, then changed (or created again): as first told
}
