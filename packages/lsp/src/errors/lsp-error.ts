import { ToolsError, type ToolsErrorOptions } from "@tools/registry";

/**
 * Codes the lsp package raises: `LSP_FILE_NOT_FOUND` (the file asked about does not exist),
 * `LSP_NO_SERVER` (no marker or no binary), `LSP_SERVER_FAILED`
 * (crashed or did not initialize), `LSP_TIMEOUT`, `LSP_REQUEST_FAILED` (the server answered with an error), `LSP_SYMBOL_NOT_FOUND`, `LSP_BAD_ARGUMENTS`,
 * `LSP_UNSUPPORTED` (the server does not offer the action), `LSP_RENAME_FAILED`, `LSP_RENAME_CLASH`
 * (the new name clashes with one already declared or visible where the symbol is used).
 */
export type LspErrorCode =
  | "LSP_FILE_NOT_FOUND"
  | "LSP_NO_SERVER"
  | "LSP_SERVER_FAILED"
  | "LSP_TIMEOUT"
  | "LSP_REQUEST_FAILED"
  | "LSP_SYMBOL_NOT_FOUND"
  | "LSP_BAD_ARGUMENTS"
  | "LSP_UNSUPPORTED"
  | "LSP_RENAME_FAILED"
  | "LSP_RENAME_CLASH";

/** The error of @tools/lsp: a {@link ToolsError} with one of the {@link LspErrorCode}s. */
export class LspError extends ToolsError {
  constructor(options: ToolsErrorOptions & { code: LspErrorCode }) {
    super(options);
    this.name = "LspError";
  }
}
