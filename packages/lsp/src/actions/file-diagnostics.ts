import { boundList } from "@tools/registry";
import { byPosition, errorsAndWarnings, formatDiagnostic } from "../format/diagnostics.js";
import type { ActionContext } from "./action-context.js";

/** Most diagnostics listed for one file. */
export const fileDiagnosticsLimit = 100;

/**
 * diagnostics(file): syncs the file from disk and returns its fresh errors and warnings, saying
 * how many information and hint diagnostics were not listed. Only what is listed is recorded as
 * shown, so diagnostics on a later write still report the rest. When the server did not answer
 * for the file's version within the bound (a cold server loading its project) and its last
 * answer, if any, had no errors or warnings, the diagnostics are said not to be known yet,
 * never "no diagnostics": an answer that is empty and no answer are different things.
 */
export async function fileDiagnostics(file: string, context: ActionContext): Promise<string> {
  const absolute = context.resolvePath(file);
  const { supervisor } = context;
  const result = await supervisor.diagnostics(absolute, { save: true, progress: context.progress });
  const display = supervisor.display(absolute);
  // Not fresh and nothing said lacking: no answer came for this version within the bound.
  const unanswered = !result.fresh && result.incomplete === undefined;
  const waited = `the server did not answer for this version within ${supervisor.diagnosticsTimeoutMs} ms`;
  const worth = errorsAndWarnings(result.diagnostics);
  if (unanswered && worth.length === 0) {
    return `diagnostics of ${display} not known yet: ${waited} (it may still be loading the project); ask again`;
  }
  const stale = unanswered
    ? `(not confirmed: ${waited}; listed from its last answer, which may be for an earlier version; ask again)\n`
    : result.incomplete
      ? `(may be incomplete: ${result.incomplete})\n`
      : "";
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
