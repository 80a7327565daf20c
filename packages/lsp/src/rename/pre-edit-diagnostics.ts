import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stateKey } from "@tools/registry";
import type { Diagnostic, WorkspaceEdit } from "vscode-languageserver-protocol";
import { errorsAndWarnings } from "../format/diagnostics.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import { touchedUris } from "./apply-workspace-edit.js";

/**
 * Per call of a tool that sends its edits to the servers itself (lsp_rename), by call id, when
 * diagnostics-on-write checks it (its `begin` adds the entry, its `wrap` removes it): the errors
 * and warnings each existing file the edit touches had on its server just before the edit was
 * applied. A file whose state could not be read then is absent. The check cannot read them
 * itself: by its turn the tool has sent the new text.
 */
export const preEditDiagnosticsKey = stateKey<Map<string, Map<string, readonly Diagnostic[]>>>(
  "LSP diagnostics before a rename's edit",
  () => new Map(),
);

/** Longest wait for the files' diagnostics before the edit, in milliseconds (all in parallel). */
export const preEditWaitMs = 2_000;

/**
 * Reads into `into`, for each existing file `edit` touches that has a running server, what the
 * server has for it now (see `LspSupervisor.currentDiagnostics`), within `timeoutMs`; a file not
 * open there is opened first (with its text before the edit; the rename re-syncs it after).
 * Call it before the edit is applied.
 */
export async function readPreEditDiagnostics(
  supervisor: LspSupervisor,
  edit: WorkspaceEdit,
  into: Map<string, readonly Diagnostic[]>,
  timeoutMs: number = preEditWaitMs,
): Promise<void> {
  const now = performance.now();
  const files = touchedUris(edit)
    .filter((uri) => uri.startsWith("file:"))
    .map((uri) => fileURLToPath(uri))
    .filter((file) => existsSync(file));
  await Promise.all(
    files.map(async (file) => {
      const client = supervisor.runningClientFor(file);
      if (!client) return;
      if (!client.isOpen(supervisor.uriOf(file))) {
        const opened = await supervisor.open(file).then(
          () => true,
          () => false,
        );
        if (!opened) return;
      }
      const left = timeoutMs - (performance.now() - now);
      if (left <= 0) return;
      const diagnostics = await supervisor
        .currentDiagnostics(file, left, performance.now())
        .catch(() => undefined);
      if (diagnostics) into.set(file, errorsAndWarnings(diagnostics));
    }),
  );
}
