import { ToolsError, type ToolsErrorOptions } from "@tools/registry";

/**
 * The codes `@tools/ask` raises. `ASK_TIMED_OUT`, `ASK_NO_HUMAN` and `ASK_DECLINED_BEFORE` are outcomes the model reads
 * (never answers); the rest are mistakes in a question, a reply, a port or (`ASK_INVALID_OPTION`,
 * thrown at creation) the harness's options.
 */
export type AskErrorCode =
  | "ASK_INVALID_QUESTION"
  | "ASK_INVALID_REPLY"
  | "ASK_TIMED_OUT"
  | "ASK_NO_HUMAN"
  | "ASK_CANCELLED"
  | "ASK_DECLINED_BEFORE"
  | "ASK_PORT_FAILED"
  | "ASK_INVALID_OPTION";

/** A {@link ToolsError} with one of the {@link AskErrorCode}s. */
export class AskError extends ToolsError {
  declare readonly code: AskErrorCode;

  constructor(options: ToolsErrorOptions & { code: AskErrorCode }) {
    super(options);
    this.name = "AskError";
  }
}
