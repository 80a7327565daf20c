import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import type { ServerSpec } from "../servers/server-table.js";

/** What the supervisor keeps per (language, root). */
export interface ServerRecord {
  readonly key: string;
  readonly spec: ServerSpec;
  readonly root: string;
  client?: LanguageClient;
  starting?: Promise<LanguageClient>;
  crashes: number;
  lastCrashAt: number;
  lastFailure?: string;
  /** The last stderr lines of the server that failed last (kept after its client is gone). */
  lastStderr?: string;
  /** Process id of the latest server started for this root (kept after a failed start). */
  lastPid?: number;
  /** The client whose crash was already counted. */
  countedCrashOf?: LanguageClient;
}

/** Counts the crash of `client` once (a failed start or an exit while running). */
export function countCrash(record: ServerRecord, client: LanguageClient, reason?: string): void {
  if (record.countedCrashOf === client) return;
  record.countedCrashOf = client;
  record.crashes += 1;
  record.lastCrashAt = Date.now();
  record.lastFailure = reason ?? client.failure;
  record.lastStderr = client.stderrTail();
}

/** Forgets crashes and back-off (a `reload`). */
export function resetCrashes(record: ServerRecord): void {
  record.crashes = 0;
  record.lastFailure = undefined;
  record.lastStderr = undefined;
  record.countedCrashOf = undefined;
}

/**
 * From the second crash on, a restart waits 1 s, 2 s, 4 s … (at most 30 s) after the last
 * one; earlier, throws `LSP_SERVER_FAILED` saying when (`reload` restarts at once).
 */
export function checkBackoff(record: ServerRecord, display: string): void {
  if (record.crashes < 2) return;
  const backoffMs = Math.min(30_000, 1000 * 2 ** (record.crashes - 2));
  const wait = record.lastCrashAt + backoffMs - Date.now();
  if (wait > 0) {
    throw new LspError({
      code: "LSP_SERVER_FAILED",
      message: `${record.spec.command} for ${display} failed ${record.crashes} times; the next restart is allowed in ${Math.ceil(
        wait / 1000,
      )} s (or use action "reload" now). Last failure: ${record.lastFailure ?? "unknown"}`,
    });
  }
}
