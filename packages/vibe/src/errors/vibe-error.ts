import { ToolsError, type ToolsErrorOptions } from "@tools/registry";

/** The codes @tools/vibe raises, besides the registry's own. */
export type VibeErrorCode =
  | "UNKNOWN_WORKER"
  | "WORKER_FAILED"
  | "TURN_LIMIT"
  | "COMMAND_FAILED"
  | "INVALID_BACKEND_CONFIG"
  | "VIBE_LIST_CLOSED"
  | "TOO_MANY_WORKERS"
  | "WORKER_ABOVE_CAP"
  | "COMMAND_NOT_FOUND"
  | "MODEL_UNAVAILABLE";

/**
 * An error of `@tools/vibe`. It is a {@link ToolsError}: `invoke` turns it into an error result whose
 * message says what was wrong and what to do next.
 */
export class VibeError extends ToolsError {
  constructor(options: ToolsErrorOptions & { code: VibeErrorCode }) {
    super(options);
    this.name = "VibeError";
  }
}
