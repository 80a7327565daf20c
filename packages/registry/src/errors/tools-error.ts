const marker = Symbol.for("@tools/registry.ToolsError");

/**
 * The codes `@tools/registry` itself raises. Packages add their own string codes
 * (`LSP_SERVER_NOT_FOUND`, `DEBUG_SESSION_EXISTS`, …) on subclasses of {@link ToolsError}.
 */
export type RegistryErrorCode =
  | "UNKNOWN_TOOL"
  | "UNKNOWN_SURFACE"
  | "TOOL_NOT_WIRED"
  | "TIER_EXCEEDED"
  | "NOT_ON_SURFACE"
  | "INVALID_ARGUMENTS"
  | "GUARDRAIL_REFUSED"
  | "APPROVAL_DENIED"
  | "NO_APPROVER"
  | "REENTRY_DEPTH"
  | "LANE_REENTRY"
  | "RUN_DISPOSED"
  | "CANCELLED"
  | "TIMEOUT"
  | "TOOL_FAILED"
  | "INVALID_DEFINITION"
  | "NOT_WIRED"
  | "INVALID_WORKING_DIRECTORY"
  | "INVALID_APPROVAL_POLICY"
  | "STRICT_SCHEMA_UNSUPPORTED"
  | "INVALID_REQUEST";

/** A registry code, or any package's own code. */
export type ToolsErrorCode = RegistryErrorCode | (string & {});

/** Options of {@link ToolsError}. */
export interface ToolsErrorOptions {
  /** Stable machine-readable code, e.g. `"TIER_EXCEEDED"`. Never shown to the model alone. */
  code: ToolsErrorCode;
  /** What was wrong, what was expected, and what to do next — the model reads this. */
  message: string;
  /** Structured details for harnesses and logs (not shown to the model). */
  data?: Readonly<Record<string, unknown>>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one base error of the `@tools` packages. Check with {@link ToolsError.isInstance}, which works
 * across duplicated copies of the package, rather than `instanceof`.
 */
export class ToolsError extends Error {
  private readonly [marker] = true;

  /** Stable machine-readable code. */
  readonly code: ToolsErrorCode;
  /** Structured details; empty when there are none. */
  readonly data: Readonly<Record<string, unknown>>;

  constructor(options: ToolsErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolsError";
    this.code = options.code;
    this.data = options.data ?? {};
  }

  /** True for any ToolsError (or subclass), even from another copy of this package. */
  static isInstance(error: unknown): error is ToolsError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** The message of any thrown value, for wrapping foreign errors. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
