import { ToolsError, type ToolsErrorOptions } from "@tools/registry";

/** The codes @tools/structural raises. */
export type StructuralErrorCode =
  | "GRAMMAR_LOAD_FAILED"
  | "UNKNOWN_LANGUAGE"
  | "LANGUAGE_REQUIRED"
  | "PATTERN_INVALID"
  | "TEMPLATE_INVALID"
  | "PATH_NOT_FOUND"
  | "FILE_TOO_LARGE"
  | "FILE_NOT_TEXT"
  | "SEARCH_TIMEOUT"
  | "UNKNOWN_EDIT"
  | "EDIT_STALE"
  | "WRITE_FAILED";

/** A failure of a structural tool, with a message the model can act on. */
export class StructuralError extends ToolsError {
  constructor(options: Omit<ToolsErrorOptions, "code"> & { code: StructuralErrorCode }) {
    super(options);
    this.name = "StructuralError";
  }
}
