import { boundList } from "@tools/registry";
import { byPosition, errorsAndWarnings, formatDiagnostic } from "../format/diagnostics.js";
import type { ActionContext } from "./action-context.js";

/** Most diagnostics listed for one file. */
export const fileDiagnosticsLimit = 100;

/**
 * diagnostics(file): syncs the file from disk and returns its fresh errors and warnings, saying
 * how many information and hint diagnostics were not listed. Only what is listed is recorded as
 * shown, so diagnostics on a later write still report the rest.
 */
export async function fileDiagnostics(file: string, context: ActionContext): Promise<string> {
  const absolute = context.resolvePath(file);
  const { supervisor } = context;
  const result = await supervisor.diagnostics(absolute, { save: true, progress: context.progress });
  const display = supervisor.display(absolute);
  const stale =
    result.fresh && !result.incomplete
      ? ""
      : `(may be incomplete: ${result.incomplete ?? `the server did not answer for this version within ${supervisor.diagnosticsTimeoutMs} ms`})\n`;
  const worth = errorsAndWarnings(result.diagnostics);
  const quiet = result.diagnostics.length - worth.length;
  const quietNote =
    quiet > 0 ? `(${quiet} information or hint diagnostic${quiet === 1 ? "" : "s"} not listed)` : "";
  // Shown clean: an error that comes back is new to the ledger (it said "still present").
  if (worth.length === 0 && result.fresh && !result.incomplete) context.recordShown?.(absolute, [], []);
  if (result.diagnostics.length === 0) return `${stale}no diagnostics in ${display}`;
  if (worth.length === 0) return `${stale}no errors or warnings in ${display} ${quietNote}`;
  const { items, note } = boundList(byPosition(worth), fileDiagnosticsLimit, "diagnostics");
  if (result.fresh) context.recordShown?.(absolute, items, result.incomplete ? undefined : worth);
  const notes = [note, quietNote].filter((text) => text).join("\n");
  return `${stale}${worth.length} diagnostic${worth.length === 1 ? "" : "s"} in ${display}:\n${items
    .map((diagnostic) => formatDiagnostic(display, diagnostic, supervisor.workingDirectory))
    .join("\n")}${notes ? `\n${notes}` : ""}`;
}
