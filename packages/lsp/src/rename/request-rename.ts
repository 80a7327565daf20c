import type { PrepareRenameResult, Position, Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import { readsAsName } from "./apply-workspace-edit.js";

/**
 * Asks the server for the rename's WorkspaceEdit: prepareRename first where offered, then
 * rename. Any refusal or server error becomes `LSP_RENAME_FAILED` saying nothing was written; so
 * does a prepareRename range that is not the identifier `symbol` at `at` on `lineText` (the
 * server would rename something else: typescript-language-server renames a whole module path
 * from a name inside it), and an edit that changes nothing.
 */
export async function requestRenameEdit(
  client: LanguageClient,
  uri: string,
  at: Position,
  symbol: string,
  newName: string,
  lineText: string,
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
      if (!prepared) return refuse("the server says it is not a renamable symbol");
      const range = preparedRange(prepared);
      if (range && !coversName(range, at, symbol, lineText)) {
        const covered =
          range.start.line === range.end.line && range.start.line === at.line
            ? `${JSON.stringify(lineText.slice(range.start.character, range.end.character))} (columns ${range.start.character + 1}–${range.end.character})`
            : `lines ${range.start.line + 1}–${range.end.line + 1}`;
        refuse(
          `what the server would rename there is ${covered}, not the identifier '${symbol}' (it is part of a string, such as a module path, or of a longer token). Give the line of a declaration or use of the identifier itself, or edit the text by hand`,
        );
      }
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
    if (isEmpty(edit))
      return refuse(
        `the server's edit changes nothing (no file, no text): it does not take '${symbol}' there for a symbol it can rename (a name written with combining characters, or a file it has not analysed). Check it with lsp references or hover, or edit by hand`,
      );
    return edit;
  } catch (error) {
    if (LspError.isInstance(error) && error.code === "LSP_REQUEST_FAILED")
      return refuse(error.message, error);
    throw error;
  }
}

/** The range a prepareRename answer names, or undefined when it leaves it to the server. */
function preparedRange(prepared: PrepareRenameResult): Range | undefined {
  if ("range" in prepared) return prepared.range;
  if ("start" in prepared) return prepared;
  return undefined;
}

/**
 * Whether `range` is the identifier `name` at `at`: on its line, holding the position's whole
 * name, and reading that name (a sigil before it allowed: a private `#count`, a raw `r#type`).
 */
function coversName(range: Range, at: Position, name: string, lineText: string): boolean {
  if (range.start.line !== at.line || range.end.line !== at.line) return false;
  const { character: start } = range.start;
  const { character: end } = range.end;
  if (start > at.character || end < at.character + name.length) return false;
  return readsAsName(lineText.slice(start, end), name);
}

/** True when a WorkspaceEdit has no text edit and no file operation. */
function isEmpty(edit: WorkspaceEdit): boolean {
  if (edit.documentChanges)
    return edit.documentChanges.every((change) => "textDocument" in change && change.edits.length === 0);
  return Object.values(edit.changes ?? {}).every((edits) => edits.length === 0);
}
