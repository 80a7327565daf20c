// The public API of @tools/lsp. Every export is named here; nothing else is public.

export { LspError } from "./errors/lsp-error.js";
export type { LspErrorCode } from "./errors/lsp-error.js";
export { defaultServers } from "./servers/server-table.js";
export type { ServerSpec, WorkspaceMarker } from "./servers/server-table.js";
export { LspSupervisor, createLspSupervisor, lspSupervisorKey } from "./supervisor/supervisor.js";
export type { Detection, FileDiagnostics, LspSupervisorOptions } from "./supervisor/supervisor.js";
export type { ClientState } from "./client/language-client.js";
export { lspTool } from "./tools/lsp-tool.js";
export { lspRenameTool } from "./tools/lsp-rename-tool.js";
export { diagnosticsOnWrite } from "./diagnostics/diagnostics-on-write.js";
export type { DiagnosticsOnWriteOptions } from "./diagnostics/diagnostics-on-write.js";
export { diagnosticsLedgerKey, recordDiagnostics } from "./diagnostics/diagnostics-ledger.js";
export type { DiagnosticsLedger, LedgerDelta } from "./diagnostics/diagnostics-ledger.js";
