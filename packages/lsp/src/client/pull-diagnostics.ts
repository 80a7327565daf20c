import type { Diagnostic, ServerCapabilities } from "vscode-languageserver-protocol";
import type { ServerRequestState } from "./server-requests.js";

/** True when the server offers pull diagnostics, statically or by registration. */
export function pullAvailable(capabilities: ServerCapabilities, state: ServerRequestState): boolean {
  return capabilities.diagnosticProvider !== undefined || state.pullIdentifiers.size > 0;
}

/**
 * `textDocument/diagnostic` for every provider identifier (the static one and each registered),
 * in parallel; the items of the full reports, together.
 */
export async function pullDiagnostics(
  request: <R>(method: string, params: unknown, timeoutMs: number) => Promise<R>,
  capabilities: ServerCapabilities,
  state: ServerRequestState,
  uri: string,
  timeoutMs: number,
): Promise<Diagnostic[]> {
  const identifiers = new Set<string | undefined>(state.pullIdentifiers);
  const provider = capabilities.diagnosticProvider;
  if (provider !== undefined) identifiers.add(provider.identifier);
  if (identifiers.size === 0) identifiers.add(undefined);
  const reports = await Promise.all(
    [...identifiers].map((identifier) =>
      request<{ kind: string; items?: Diagnostic[] }>(
        "textDocument/diagnostic",
        { textDocument: { uri }, ...(identifier ? { identifier } : {}) },
        timeoutMs,
      ),
    ),
  );
  return reports.flatMap((report) => (report.kind === "full" ? (report.items ?? []) : []));
}
