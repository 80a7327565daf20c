import { boundList } from "@tools/registry";
import { byPosition, errorsAndWarnings, formatDiagnostic } from "../format/diagnostics.js";
import type { ActionContext } from "./action-context.js";

/** Most diagnostics listed for one file. */
export const fileDiagnosticsLimit = 100;

/** diagnostics(file): syncs the file from disk and returns its fresh diagnostics, all severities. */
export async function fileDiagnostics(file: string, context: ActionContext): Promise<string> {
  const absolute = context.resolvePath(file);
  const { supervisor } = context;
  const result = await supervisor.diagnostics(absolute, { save: true, progress: context.progress });
  const display = supervisor.display(absolute);
  if (result.fresh) context.recordShown?.(absolute, errorsAndWarnings(result.diagnostics));
  const stale = result.fresh
    ? ""
    : `(may be incomplete: the server did not answer for this version within ${supervisor.diagnosticsTimeoutMs} ms)\n`;
  if (result.diagnostics.length === 0) return `${stale}no diagnostics in ${display}`;
  const { items, note } = boundList(byPosition(result.diagnostics), fileDiagnosticsLimit, "diagnostics");
  return `${stale}${result.diagnostics.length} diagnostics in ${display}:\n${items
    .map((diagnostic) => formatDiagnostic(display, diagnostic))
    .join("\n")}${note ? `\n${note}` : ""}`;
}
