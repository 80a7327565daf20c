import type { ClientCapabilities } from "vscode-languageserver-protocol";

/**
 * What we tell servers we support — only what this package implements. Not advertised on
 * purpose: `workspace.fileOperations.willRename` (rust-analyzer then drops the reference edits
 * of a file-moving rename and waits to be asked, which we never do).
 */
export const clientCapabilities: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  window: { workDoneProgress: true, showMessage: {} },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: false,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ["create", "rename", "delete"],
      failureHandling: "abort",
    },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: false },
    diagnostics: { refreshSupport: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            "",
            "quickfix",
            "refactor",
            "refactor.extract",
            "refactor.inline",
            "refactor.rewrite",
            "source",
            "source.organizeImports",
          ],
        },
      },
    },
    rename: { prepareSupport: true },
  },
};
