import type { PrepareRenameResult, Position, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";

/**
 * Asks the server for the rename's WorkspaceEdit: prepareRename first where offered, then
 * rename. Any refusal or server error becomes `LSP_RENAME_FAILED` saying nothing was written.
 */
export async function requestRenameEdit(
  client: LanguageClient,
  uri: string,
  at: Position,
  symbol: string,
  newName: string,
  signal?: AbortSignal,
): Promise<WorkspaceEdit> {
  const refuse = (reason: string, cause?: unknown): never => {
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `cannot rename '${symbol}' on line ${at.line + 1}: ${reason}; nothing was written`,
      cause,
    });
  };
  const provider = client.capabilities.renameProvider;
  if (!provider) refuse(`${client.spec.command} does not offer rename`);
  try {
    if (typeof provider === "object" && provider.prepareProvider) {
      const prepared = await client.request<PrepareRenameResult | null>(
        "textDocument/prepareRename",
        {
          textDocument: { uri },
          position: at,
        },
        undefined,
        signal,
      );
      if (!prepared) refuse("the server says it is not a renamable symbol");
    }
    const edit = await client.request<WorkspaceEdit | null>(
      "textDocument/rename",
      {
        textDocument: { uri },
        position: at,
        newName,
      },
      undefined,
      signal,
    );
    if (!edit || (!edit.changes && !edit.documentChanges)) return refuse("the server returned no edit");
    return edit;
  } catch (error) {
    if (LspError.isInstance(error) && error.code === "LSP_REQUEST_FAILED")
      return refuse(error.message, error);
    throw error;
  }
}
