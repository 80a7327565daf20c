import { existsSync } from "node:fs";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { errorsAndWarnings } from "../format/diagnostics.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import {
  noteLook,
  recordAlongside,
  type DiagnosticsLedger,
  type DiagnosticsLooks,
} from "./diagnostics-ledger.js";
import { withBound } from "./with-bound.js";
import type { WriteCheck } from "./write-diagnostics-section.js";

/** Per server publishing for files not open, its publish mark before the write (see `unopenedPublishes`). */
export type PublishMarks = ReadonlyMap<string, number>;

/**
 * Before a write is sent to the servers: records what the files it did not change had, for
 * those not looked at yet, so that only what the write adds to them is reported. The files open
 * on the servers of `files` (at most `limit`, most recently opened) are read as their server had
 * them before `started` (see `LanguageClient.currentDiagnostics`), within a quarter of the bound
 * and at most 2 s; the files not open that a server publishes for (gopls) from its publishes,
 * whose marks are returned.
 */
export async function lookBefore(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  options: { started: number; boundMs: number; limit: number },
): Promise<PublishMarks> {
  const written = new Set(files);
  const marks = new Map<string, number>();
  for (const server of supervisor.unopenedPublishes(files)) {
    if (server.mark === undefined) continue;
    marks.set(server.server, server.mark);
    for (const { file, diagnostics } of server.files) {
      if (!written.has(file) && !looks.files.has(file)) noteLook(looks, file, errorsAndWarnings(diagnostics));
    }
  }
  const unseen = supervisor
    .openAlongside(files)
    .filter((file) => !looks.files.has(file))
    .slice(-options.limit);
  if (unseen.length === 0) return marks;
  let before = true;
  const ms = Math.min(2_000, options.boundMs / 4);
  await withBound(
    Promise.all(
      unseen.map(async (file) => {
        const diagnostics = await supervisor.currentDiagnostics(file, ms, options.started);
        if (before && diagnostics) noteLook(looks, file, errorsAndWarnings(diagnostics));
      }),
    ),
    ms,
    options.boundMs,
  ).catch(() => undefined);
  // An answer that comes later is no look from before the write.
  before = false;
  return marks;
}

/**
 * After the written files were checked (`checkedFiles`, fresh): the files their servers hold
 * that the write did not change. Those open there are checked again (at most `limit`, within
 * the bound; those not checked in time are named); those not open that a server published for
 * after its mark (gopls: the packages an edit affects) are read from those publishes. Errors and
 * warnings new since a file was last looked at are what the write broke in it, and those
 * reported earlier and now gone what it mended. A file open but never looked at is only
 * recorded; one not open and never published for was clean.
 */
export async function checkAlongside(
  supervisor: LspSupervisor,
  checkedFiles: readonly string[],
  state: {
    ledger: DiagnosticsLedger;
    looks: DiagnosticsLooks;
    marks: PublishMarks;
    /** Every file the write changed (deleted ones too). */
    written: readonly string[];
    deadline: number;
    boundMs: number;
    limit: number;
    /** Aborted, nothing is recorded (the write's result went without its check). */
    signal: AbortSignal;
  },
): Promise<WriteCheck[]> {
  if (checkedFiles.length === 0) return [];
  // gopls publishes the written file's version before the other files of its pass.
  if (!(await supervisor.awaitDiagnosticsWork(checkedFiles, state.deadline))) return [];
  const written = new Set(state.written);
  const open = supervisor.openAlongside(checkedFiles).filter((file) => existsSync(file));
  const results = await Promise.all(
    open.slice(-state.limit).map(async (file) => {
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
  if (state.signal.aborted) return [];
  const compare = (file: string, diagnostics: readonly Diagnostic[]): WriteCheck[] => {
    const current = errorsAndWarnings(diagnostics);
    const introduced = noteLook(state.looks, file, current);
    const gone = recordAlongside(state.ledger, file, current, introduced);
    const display = supervisor.display(file);
    return introduced.length > 0 || gone > 0 ? [{ kind: "alongside", file, display, introduced, gone }] : [];
  };
  const checks = results.flatMap(({ file, fresh }): WriteCheck[] =>
    fresh?.fresh
      ? compare(file, fresh.diagnostics)
      : [{ kind: "alongside-unchecked", file, display: supervisor.display(file) }],
  );
  const openSet = new Set(open);
  for (const server of supervisor.unopenedPublishes(checkedFiles)) {
    const mark = state.marks.get(server.server);
    // Started by this write, or still in its first check of the workspace: nothing to compare.
    if (mark === undefined) continue;
    for (const { file, diagnostics, mark: at } of server.files) {
      if (at <= mark || written.has(file) || openSet.has(file)) continue;
      // Never published for before: clean, as far as the server said.
      if (!state.looks.files.has(file)) noteLook(state.looks, file, []);
      checks.push(...compare(file, diagnostics));
    }
  }
  return checks;
}
