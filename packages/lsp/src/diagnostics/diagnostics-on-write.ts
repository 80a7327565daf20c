import { existsSync } from "node:fs";
import { appendText, errorMessage, type ResultWrapper, type ToolResult } from "@tools/registry";
import { errorsAndWarnings } from "../format/diagnostics.js";
import { lspSupervisorKey, type LspSupervisor } from "../supervisor/supervisor.js";
import {
  diagnosticsLedgerKey,
  diagnosticsLooksKey,
  forgetDiagnostics,
  forgetLooks,
  noteLook,
  recordAlongside,
  recordDiagnostics,
} from "./diagnostics-ledger.js";
import { writeDiagnosticsSection, type WriteCheck } from "./write-diagnostics-section.js";

/** Options of {@link diagnosticsOnWrite}. */
export interface DiagnosticsOnWriteOptions {
  /** The longest a write is held for its diagnostics, in milliseconds; default 8 000. */
  boundMs?: number;
  /** Most new diagnostics listed per file; default 20. */
  perFileLimit?: number;
  /** Most new diagnostics listed across all the files of one write; default 50. */
  totalLimit?: number;
  /** Most files whose new diagnostics are listed for one write; default 10. */
  fileLimit?: number;
  /** Most files open alongside the changed ones checked again after a write; default 20. */
  alongsideLimit?: number;
}

/**
 * A registry result wrapper: for every file in `result.changedFiles` that a language server can
 * check, syncs it (didOpen/didChange + didSave), waits for fresh diagnostics by that server's
 * rule, and appends only the errors and warnings new to the run's ledger, saying how many earlier
 * ones are still present. Files with new diagnostics are listed first, most first, within
 * `perFileLimit`, `totalLimit` and `fileLimit`; what is left out is counted and stays out of the
 * ledger, so the next write or lsp diagnostics reports it. Clean files and files with nothing new
 * share one summary line (a lone file keeps its own). Then the other files open on the same
 * servers (a file importing a written one, opened by a question or a search) are checked again:
 * errors and warnings they did not have before the write are listed as new in a file the write
 * did not change, and those reported earlier and now gone are counted; what they had before is
 * never reported (read before the write is sent: see `LanguageClient.currentDiagnostics`).
 * Format: {@link writeDiagnosticsSection}.
 * Files without a server are skipped silently; the run must have an LSP supervisor wired, or the
 * wrapper does nothing.
 */
export function diagnosticsOnWrite(options: DiagnosticsOnWriteOptions = {}): ResultWrapper {
  const boundMs = options.boundMs ?? 8_000;
  const perFileLimit = options.perFileLimit ?? 20;
  const totalLimit = options.totalLimit ?? 50;
  const fileLimit = options.fileLimit ?? 10;
  const alongsideLimit = options.alongsideLimit ?? 20;
  return {
    name: "diagnostics-on-write",
    async wrap(result: ToolResult, call): Promise<ToolResult> {
      const supervisor = call.run.get(lspSupervisorKey);
      if (!supervisor || result.changedFiles.length === 0) return result;
      const deadline = Date.now() + boundMs;
      const started = performance.now();
      const ledger = call.run.state(diagnosticsLedgerKey);
      const looks = call.run.state(diagnosticsLooksKey);
      const unique = [...new Set(result.changedFiles)];
      // A deleted file must not stay open on its server (its old text would keep answering).
      // Not awaited: notifications keep their order, and the write is not held for it.
      for (const file of unique.filter((path) => !existsSync(path))) {
        void supervisor.closeDeleted(file).catch(() => undefined);
        // Gone with its diagnostics: made again with the same error, the error is new.
        recordDiagnostics(ledger, file, []);
        forgetLooks(looks, file);
      }
      const files = unique.filter((file) => {
        if (!existsSync(file)) return false;
        const spec = supervisor.specFor(file);
        if (!spec) return false;
        const detection = supervisor.detect(spec, file);
        return detection.root !== undefined && detection.binary.found;
      });
      // What the files open alongside had before the write, for those not looked at yet: only
      // what the write adds to them is reported.
      const unseen = supervisor
        .openAlongside(files)
        .filter((file) => !looks.files.has(file))
        .slice(-alongsideLimit);
      if (unseen.length > 0) {
        let before = true;
        const baselineMs = Math.min(2_000, boundMs / 4);
        await withBound(
          Promise.all(
            unseen.map(async (file) => {
              const diagnostics = await supervisor.currentDiagnostics(file, baselineMs, started);
              if (before && diagnostics) noteLook(looks, file, errorsAndWarnings(diagnostics));
            }),
          ),
          baselineMs,
          boundMs,
        ).catch(() => undefined);
        before = false;
      }
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
      const checks = checked.map(({ file, fresh, error }): WriteCheck => {
        const display = supervisor.display(file);
        if (!fresh)
          return { kind: "not-checked", file, display, reason: whyNotChecked(supervisor, file, error) };
        // Never record or report a stale list as fresh.
        if (!fresh.fresh) return { kind: "not-confirmed", file, display };
        const current = errorsAndWarnings(fresh.diagnostics);
        noteLook(looks, file, current);
        const delta = recordDiagnostics(ledger, file, current);
        return {
          kind: "checked",
          file,
          display,
          ...delta,
          ...(fresh.incomplete ? { partial: fresh.incomplete } : {}),
        };
      });
      checks.push(
        ...(await checkAlongside(
          supervisor,
          checks.flatMap((check) => (check.kind === "checked" ? [check.file] : [])),
          { ledger, looks, deadline, boundMs, limit: alongsideLimit },
        )),
      );
      const section = writeDiagnosticsSection(checks, {
        perFile: perFileLimit,
        total: totalLimit,
        files: fileLimit,
        boundMs,
      });
      // What is not listed is not reported: the next write, or lsp diagnostics, lists it.
      for (const [file, diagnostics] of section.unlisted) {
        forgetDiagnostics(ledger, file, diagnostics);
        forgetDiagnostics(looks.counts, file, diagnostics);
      }
      return section.text === undefined ? result : appendText(result, section.text);
    },
  };
}

/**
 * Checks again the files open on the servers of `checkedFiles` that the write did not change (a
 * file importing one it changed), after those: their errors and warnings new since they were
 * last looked at are what the write broke in them, and those reported earlier and now gone what
 * it mended. A file looked at for the first time is only recorded. Within the wrapper's bound;
 * those not checked in time are named.
 */
async function checkAlongside(
  supervisor: LspSupervisor,
  checkedFiles: readonly string[],
  state: {
    ledger: Map<string, number>;
    looks: { counts: Map<string, number>; files: Set<string> };
    deadline: number;
    boundMs: number;
    limit: number;
  },
): Promise<WriteCheck[]> {
  if (checkedFiles.length === 0) return [];
  const files = supervisor
    .openAlongside(checkedFiles)
    .filter((file) => existsSync(file))
    .slice(-state.limit);
  const results = await Promise.all(
    files.map(async (file) => {
      const remaining = state.deadline - Date.now();
      if (remaining <= 0) return { file, fresh: undefined };
      try {
        const fresh = await withBound(
          supervisor.diagnostics(file, { save: false, timeoutMs: Math.max(100, remaining - 100) }),
          remaining,
          state.boundMs,
        );
        return { file, fresh };
      } catch {
        return { file, fresh: undefined };
      }
    }),
  );
  return results.flatMap(({ file, fresh }): WriteCheck[] => {
    const display = supervisor.display(file);
    if (!fresh?.fresh) return [{ kind: "alongside-unchecked", file, display }];
    const current = errorsAndWarnings(fresh.diagnostics);
    const introduced = noteLook(state.looks, file, current);
    const gone = recordAlongside(state.ledger, file, current, introduced);
    return introduced.length > 0 || gone > 0 ? [{ kind: "alongside", file, display, introduced, gone }] : [];
  });
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
