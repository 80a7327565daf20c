/**
 * Bringing the documents open on a server up to date with the disk (see
 * `LspSupervisor.resyncOpen` and `LspSupervisor.catchUp`): what a shell command or another tool
 * changed is sent before a question whose answer reaches into those files.
 */
import { extname } from "node:path";
import type { LanguageClient } from "../client/language-client.js";
import type { FileText, FileTexts } from "../files/file-texts.js";
import { languageIdFor } from "../servers/server-table.js";

/** What a resync reads files through: their texts, and the path ↔ uri mapping. */
export interface ResyncFiles {
  /** Texts of files, reused while unchanged on disk. */
  readonly texts: FileTexts;
  /** The `file://` URI of a path. */
  uriOf(file: string): string;
  /** The path of a `file://` URI. */
  pathOf(uri: string): string;
}

/**
 * Brings every other document open on `client` up to date with the disk: a file changed since
 * it was synced (by a shell command, another tool) gets a didChange, a deleted one a didClose.
 * Answers that reach into those files (references, a rename's edits) then match their text.
 * Files changed on disk that are not open are told to the server first (its file watchers).
 * One `stat` per open document when nothing changed, those a search left open (parked)
 * included: the folder watch can lose events (libuv drops the kernel's queue-overflow event),
 * and a parked header's old text would be what other files are checked against. On a server
 * that indexes only its open files (clangd), those last built against a header's old text are
 * sent again too (`refreshIncluders`). The files in `held` (other writes', theirs to send) are
 * left as the server has them, their disk events kept for a later flush. Returns the documents
 * sent again.
 */
export async function resyncOpen(
  files: ResyncFiles,
  client: LanguageClient,
  except?: string,
  held: readonly string[] = [],
): Promise<string[]> {
  if (held.length === 0) {
    await client.flushFileChanges();
    return resyncDocuments(files, client, (uri) => uri === except);
  }
  await client.flushFileChanges(new Set(held));
  const heldUris = new Set(held.map((file) => files.uriOf(file)));
  return resyncDocuments(files, client, (uri) => uri === except || heldUris.has(uri));
}

/**
 * Brings `clients` up to date with everything changed on disk but `held` (their changes held
 * back; see `LspSupervisor.catchUp`). Returns the servers told anything.
 */
export async function catchUpClients(
  files: ResyncFiles,
  held: readonly string[],
  clients: () => Iterable<LanguageClient>,
): Promise<Set<LanguageClient>> {
  const paths = new Set(held);
  const uris = new Set(held.map((file) => files.uriOf(file)));
  const told = new Set<LanguageClient>();
  for (const client of clients()) {
    const flushed = await client.flushFileChanges(paths);
    const resynced = await resyncDocuments(files, client, (uri) => uris.has(uri));
    if (flushed || resynced.length > 0) told.add(client);
  }
  return told;
}

/**
 * Syncs each document open on `client` but those `skip` names with its text on disk (closes it
 * when unreadable), then, on a server that indexes only its open files, those built against an
 * old text (`refreshIncluders`). Returns the documents sent again.
 */
async function resyncDocuments(
  files: ResyncFiles,
  client: LanguageClient,
  skip: (uri: string) => boolean,
): Promise<string[]> {
  const resynced: string[] = [];
  for (const uri of client.openUris()) {
    if (skip(uri)) continue;
    const probe = client.probes.settled(uri);
    if (probe) await probe;
    const file = files.pathOf(uri);
    let current: FileText;
    try {
      current = files.texts.read(file);
    } catch {
      await client.close(uri);
      continue;
    }
    if (!client.isSynced(uri, current.text)) {
      await client.sync(uri, languageIdFor(client.spec, extname(file)), current.text, false);
      resynced.push(uri);
    }
  }
  if (client.spec.indexScope === "open-files") {
    for (const uri of await client.refreshIncluders()) if (!resynced.includes(uri)) resynced.push(uri);
  }
  return resynced;
}
