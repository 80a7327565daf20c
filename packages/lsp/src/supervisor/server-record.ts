import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import type { ServerSpec } from "../servers/server-table.js";

/** What {@link countCrash} reads from a crashed client (a `LanguageClient`). */
export type CrashedClient = Pick<LanguageClient, "crashedAt" | "uptimeMs" | "failure" | "stderrTail">;

/** What the supervisor keeps per (language, root). */
export interface ServerRecord {
  readonly key: string;
  readonly spec: ServerSpec;
  readonly root: string;
  client?: LanguageClient;
  starting?: Promise<LanguageClient>;
  /** Crashes in a row (see {@link countCrash}); 2 or more start the back-off. */
  crashes: number;
  /** When the last counted crash happened (`Date.now()` ms). */
  lastCrashAt: number;
  lastFailure?: string;
  /** The last stderr lines of the server that failed last (kept after its client is gone). */
  lastStderr?: string;
  /** Process id of the latest server started for this root (kept after a failed start). */
  lastPid?: number;
  /** The client whose crash was already counted. */
  countedCrashOf?: CrashedClient;
}

/**
 * Uptime (ms) after which a server counts as having run stably: its crash then counts as the
 * first again, so crashes hours apart never add up to the longest back-off.
 */
export const stableUptimeMs = 60_000;

/** Longest wait (ms) between restarts of a server that keeps crashing. */
const maxBackoffMs = 30_000;

/**
 * Counts the crash of `client` once (a failed start or an exit while running), dated when it
 * happened (`client.crashedAt`; `now` only for a client that never marked itself crashed, as a
 * start that timed out). A crash after {@link stableUptimeMs} of uptime since its spawn starts
 * the count again at 1: only crashes soon after a start build up the back-off.
 */
export function countCrash(
  record: ServerRecord,
  client: CrashedClient,
  reason?: string,
  now = Date.now(),
): void {
  if (record.countedCrashOf === client) return;
  record.countedCrashOf = client;
  const ranStably = (client.uptimeMs ?? 0) >= stableUptimeMs;
  record.crashes = ranStably ? 1 : record.crashes + 1;
  record.lastCrashAt = client.crashedAt ?? now;
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
 * From the second crash in a row on, a restart waits 1 s, 2 s, 4 s … (at most 30 s) after the
 * last crash (its own time, not when it was noticed); earlier, throws `LSP_SERVER_FAILED`
 * saying when (`reload` restarts at once). `now` is `Date.now()` ms.
 */
export function checkBackoff(record: ServerRecord, display: string, now = Date.now()): void {
  if (record.crashes < 2) return;
  const backoffMs = Math.min(maxBackoffMs, 1000 * 2 ** (record.crashes - 2));
  const wait = record.lastCrashAt + backoffMs - now;
  if (wait > 0) {
    throw new LspError({
      code: "LSP_SERVER_FAILED",
      message: `${record.spec.command} for ${display} failed ${record.crashes} times; the next restart is allowed in ${Math.ceil(
        wait / 1000,
      )} s (or use action "reload" now). Last failure: ${record.lastFailure ?? "unknown"}. A crash after ${
        stableUptimeMs / 1000
      } s of uptime counts as the first again.`,
    });
  }
}
