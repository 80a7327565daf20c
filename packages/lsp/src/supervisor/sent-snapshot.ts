/**
 * What the running servers had been sent when a write tool began (see
 * `LspSupervisor.sentSnapshot`), and whether a server may have a file's text from after it
 * (see `LspSupervisor.sentSince`).
 */
import type { LanguageClient } from "../client/language-client.js";

/** See `LspSupervisor.sentSnapshot`. */
export type SentSnapshot = ReadonlyMap<
  LanguageClient,
  { readonly diskMark: number; readonly texts: ReadonlyMap<string, string> }
>;

/**
 * What every running client among `clients` has now (the text of each open document, its
 * count of changes on disk told).
 */
export function takeSentSnapshot(clients: Iterable<LanguageClient | undefined>): SentSnapshot {
  const snapshot = new Map<LanguageClient, { diskMark: number; texts: Map<string, string> }>();
  for (const client of clients) {
    if (client?.state !== "running") continue;
    const texts = new Map<string, string>();
    for (const uri of client.openUris()) {
      const text = client.syncedText(uri);
      if (text !== undefined) texts.set(uri, text);
    }
    snapshot.set(client, { diskMark: client.diskChangeMark(), texts });
  }
  return snapshot;
}

/**
 * `client`, the running server of `file` (at `uri`), when it may have the file's current text
 * from after `snapshot`: its copy of the document changed (a sync with other text, a close or an
 * open), or, not open, a change on disk to it was told; a server started or restarted since
 * read it afresh. Undefined otherwise, and when that cannot be told (the record of changes on
 * disk is bounded).
 */
export function sentSinceSnapshot(
  snapshot: SentSnapshot,
  client: LanguageClient,
  file: string,
  uriOf: (file: string) => string,
): LanguageClient | undefined {
  const then = snapshot.get(client);
  if (!then) return client;
  const uri = uriOf(file);
  const text = client.syncedText(uri);
  if (text !== then.texts.get(uri)) return client;
  // Open then and now with the same text: an event on disk noted for it sent nothing (an open
  // document's text goes by didChange).
  if (text !== undefined) return undefined;
  return client.diskChangesSince(then.diskMark)?.includes(file) ? client : undefined;
}
