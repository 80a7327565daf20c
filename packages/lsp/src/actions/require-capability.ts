import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";

/** Capabilities an action needs, with the LSP method and what to try instead. */
const needs = {
  definition: ["definitionProvider", "textDocument/definition", "hover or references"],
  type_definition: [
    "typeDefinitionProvider",
    "textDocument/typeDefinition",
    "hover (it shows the type), then definition on the type's name",
  ],
  implementation: [
    "implementationProvider",
    "textDocument/implementation",
    "references on the interface or method",
  ],
  references: ["referencesProvider", "textDocument/references", "symbols with a query"],
  hover: ["hoverProvider", "textDocument/hover", "definition"],
  document_symbols: ["documentSymbolProvider", "textDocument/documentSymbol", "symbols with a query"],
  workspace_symbols: [
    "workspaceSymbolProvider",
    "workspace/symbol",
    "symbols with file (that file's outline)",
  ],
  code_actions: ["codeActionProvider", "textDocument/codeAction", "diagnostics"],
} as const satisfies Record<string, readonly [keyof ServerCapabilities, string, string]>;

/**
 * Throws `LSP_UNSUPPORTED` when the server did not declare the capability `action` needs (its
 * request would only come back as "unhandled method"), naming what to try instead.
 */
export function requireCapability(client: LanguageClient, action: keyof typeof needs): void {
  const [capability, method, instead] = needs[action];
  const declared = client.capabilities[capability] as unknown;
  if (declared !== undefined && declared !== null && declared !== false) return;
  throw new LspError({
    code: "LSP_UNSUPPORTED",
    message: `${client.spec.command} (${client.spec.language}) does not offer ${action.replace("_", " ")}: it declares no ${method}. Try ${instead}.`,
  });
}
