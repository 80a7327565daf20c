import { existsSync } from "node:fs";
import { appendText, errorMessage, type ResultWrapper, type ToolResult } from "@tools/registry";
import { byPosition, errorsAndWarnings, formatDiagnostic } from "../format/diagnostics.js";
import { lspSupervisorKey, type LspSupervisor } from "../supervisor/supervisor.js";
import { diagnosticsLedgerKey, forgetDiagnostics, recordDiagnostics } from "./diagnostics-ledger.js";

/** Options of {@link diagnosticsOnWrite}. */
export interface DiagnosticsOnWriteOptions {
  /** The longest a write is held for its diagnostics, in milliseconds; default 8 000. */
  boundMs?: number;
  /** Most new diagnostics listed per file; default 20. */
  perFileLimit?: number;
}

/**
 * A registry result wrapper: for every file in `result.changedFiles` that a language server can
 * check, syncs it (didOpen/didChange + didSave), waits for fresh diagnostics by that server's
 * rule, and appends only the errors and warnings new to the run's ledger, saying how many earlier
 * ones are still present. Files without a server are skipped silently; the run must have an LSP
 * supervisor wired, or the wrapper does nothing.
 */
export function diagnosticsOnWrite(options: DiagnosticsOnWriteOptions = {}): ResultWrapper {
  const boundMs = options.boundMs ?? 8_000;
  const perFileLimit = options.perFileLimit ?? 20;
  return {
    name: "diagnostics-on-write",
    async wrap(result: ToolResult, call): Promise<ToolResult> {
      const supervisor = call.run.get(lspSupervisorKey);
      if (!supervisor || result.changedFiles.length === 0) return result;
      const deadline = Date.now() + boundMs;
      const ledger = call.run.state(diagnosticsLedgerKey);
      const sections: string[] = [];
      const unique = [...new Set(result.changedFiles)];
      // A deleted file must not stay open on its server (its old text would keep answering).
      // Not awaited: notifications keep their order, and the write is not held for it.
      for (const file of unique.filter((path) => !existsSync(path)))
        void supervisor.closeDeleted(file).catch(() => undefined);
      const files = unique.filter((file) => {
        if (!existsSync(file)) return false;
        const spec = supervisor.specFor(file);
        if (!spec) return false;
        const detection = supervisor.detect(spec, file);
        return detection.root !== undefined && detection.binary.found;
      });
      const checked = await Promise.all(
        files.map(async (file) => {
          const remaining = deadline - Date.now();
          try {
            const fresh = await withBound(
              supervisor.diagnostics(file, { save: true, timeoutMs: Math.max(500, remaining - 200) }),
              remaining,
              boundMs,
            );
            return { file, fresh, error: undefined };
          } catch (error) {
            return { file, fresh: undefined, error };
          }
        }),
      );
      for (const { file, fresh, error } of checked) {
        const display = supervisor.display(file);
        if (!fresh) {
          sections.push(`diagnostics for ${display} not checked: ${whyNotChecked(supervisor, file, error)}`);
          continue;
        }
        if (!fresh.fresh) {
          // Never record or report a stale list as fresh.
          sections.push(
            `diagnostics for ${display} not confirmed within ${boundMs} ms; check with lsp diagnostics`,
          );
          continue;
        }
        const delta = recordDiagnostics(ledger, file, errorsAndWarnings(fresh.diagnostics));
        const earlier =
          delta.stillPresent > 0 ? ` (${delta.stillPresent} reported earlier still present)` : "";
        if (delta.introduced.length === 0) {
          sections.push(
            delta.stillPresent > 0
              ? `no new diagnostics in ${display}${earlier}`
              : `${display}: clean (no errors or warnings)`,
          );
          continue;
        }
        const sorted = byPosition(delta.introduced);
        // What is not listed is not reported: the next write lists it.
        forgetDiagnostics(ledger, file, sorted.slice(perFileLimit));
        const shown = sorted
          .slice(0, perFileLimit)
          .map((diagnostic) => formatDiagnostic(display, diagnostic));
        const more =
          sorted.length > perFileLimit ? `\n… ${sorted.length - perFileLimit} more new diagnostics` : "";
        sections.push(
          `${sorted.length} new diagnostic${sorted.length === 1 ? "" : "s"} in ${display}${earlier}:\n${shown.join("\n")}${more}`,
        );
      }
      if (sections.length === 0) return result;
      return appendText(result, `LSP diagnostics after this write:\n${sections.join("\n")}`);
    },
  };
}

/** The bound of the wrapper ran out (not an error of the server). */
class BoundReached extends Error {}

/**
 * Why a file's diagnostics were not checked. A bound reached while the file's server is still
 * starting (its first use in the run) is that, not a server that does not answer.
 */
function whyNotChecked(supervisor: LspSupervisor, file: string, error: unknown): string {
  if (!(error instanceof BoundReached)) return errorMessage(error);
  const spec = supervisor.specFor(file);
  const root = spec ? supervisor.detect(spec, file).root : undefined;
  const server = supervisor.processes().find((p) => p.language === spec?.language && p.root === root);
  if (server?.state === "starting") {
    return `${spec!.command} is still starting (its first use in this run) and did not answer within the bound; the next write, or lsp diagnostics, checks it`;
  }
  return error.message;
}

async function withBound<T>(work: Promise<T>, ms: number, boundMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BoundReached(`the server did not answer within the ${boundMs} ms bound`)),
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
