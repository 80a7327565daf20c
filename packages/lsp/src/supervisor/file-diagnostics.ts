/**
 * A file's diagnostics as `LspSupervisor.diagnostics` reads them: the other documents open on
 * its server brought up to date first, the file synced from disk, then its fresh diagnostics by
 * the server's rule.
 */
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { settleDiskEvents } from "../files/disk-events.js";

/** Fresh (or, at the bound, possibly incomplete) diagnostics of one file. */
export interface FileDiagnostics {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  /** False when the wait hit its bound: the list may be incomplete or stale. */
  readonly fresh: boolean;
  /** What the list lacks, when known (a checker run after the save that did not finish): fresh or not. */
  readonly incomplete?: string;
  /** The file's text as synced, for quoting lines. */
  readonly text: string;
}

/** How {@link diagnosticsOf} reads (see `LspSupervisor.diagnostics`). */
export interface FileDiagnosticsOptions {
  readonly save?: boolean;
  readonly progress?: (m: string) => void;
  readonly keep?: boolean;
  readonly resync?: boolean;
  readonly holdBack?: () => readonly string[];
}

/** What {@link diagnosticsOf} asks its servers through (an `LspSupervisor`). */
export interface DiagnosticsHost {
  runningClientFor(file: string): LanguageClient | undefined;
  uriOf(file: string): string;
  resyncOpen(client: LanguageClient, except?: string, held?: readonly string[]): Promise<string[]>;
  open(
    file: string,
    save?: boolean,
    progress?: (m: string) => void,
    forSearch?: boolean,
  ): Promise<{ client: LanguageClient; uri: string; text: string }>;
}

/**
 * The diagnostics of `file` within `timeoutMs` (see `LspSupervisor.diagnostics`); `asked.client`
 * is set to the server asked, for a retry after a reload.
 */
export async function diagnosticsOf(
  host: DiagnosticsHost,
  file: string,
  options: FileDiagnosticsOptions,
  timeoutMs: number,
  asked: { client?: LanguageClient },
): Promise<FileDiagnostics> {
  // Other documents open on the server first: the file's diagnostics depend on their text
  // (an import of a file a shell command changed), and a stale copy would be checked against.
  const resync = options.resync !== false;
  if (resync) await settleDiskEvents();
  const running = host.runningClientFor(file);
  asked.client = running;
  const held = options.holdBack?.() ?? [];
  // Looked at, not written: another write's file is that write's to send (it may have begun
  // since the caller looked); not sent, so not fresh.
  if (!(options.save ?? true) && held.includes(file))
    return { file, diagnostics: [], fresh: false, text: "" };
  if (running && resync) {
    await host.resyncOpen(
      running,
      host.uriOf(file),
      held.filter((other) => other !== file),
    );
  }
  const { client, uri, text } = await host.open(
    file,
    options.save ?? true,
    options.progress,
    options.keep === false,
  );
  asked.client = client;
  const { diagnostics, fresh, incomplete } = await client.freshDiagnostics(uri, timeoutMs, {
    withCheck: true,
  });
  if (!fresh) client.assertAlive();
  return { file, diagnostics, fresh, text, ...(incomplete ? { incomplete } : {}) };
}
