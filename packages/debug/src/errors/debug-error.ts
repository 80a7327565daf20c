import { ToolsError } from "@tools/registry";

/** The codes the debug tool raises besides the registry's own. */
export type DebugErrorCode =
  | "DEBUG_BAD_ARGUMENTS"
  | "DEBUG_NO_SESSION"
  | "DEBUG_SESSION_EXISTS"
  | "DEBUG_NOT_STOPPED"
  | "DEBUG_STALE_REFERENCE"
  | "DEBUG_ADAPTER_UNUSABLE"
  | "DEBUG_LAUNCH_FAILED"
  | "DEBUG_ADAPTER_ERROR"
  /** An `evaluate` whose expression failed in the program (the program stays stopped). */
  | "DEBUG_EVALUATE_FAILED"
  /** A request the adapter did not answer in time (it may still be working on it). */
  | "DEBUG_TIMEOUT"
  | "DEBUG_SESSION_ENDED";

/** A failure of the debug tool the model reads: what was wrong and what to do next. */
export class DebugError extends ToolsError {
  constructor(
    code: DebugErrorCode,
    message: string,
    options: { data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super({ code, message, data: options.data, cause: options.cause });
    this.name = "DebugError";
  }
}
