import { ToolsError, errorMessage } from "../errors/tools-error.js";

/** A text part of a result. */
export interface TextPart {
  readonly type: "text";
  readonly text: string;
}

/** An image part of a result: raw bytes plus their mime type (e.g. `image/png`). */
export interface ImagePart {
  readonly type: "image";
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/** One part of a tool's result, in the order the transcript shows them. */
export type ContentPart = TextPart | ImagePart;

/** Why a call failed, when it did: the code is for harnesses, the message for the model. */
export interface ResultError {
  readonly code: string;
  readonly message: string;
}

/**
 * What every call returns. `changedFiles` lists absolute paths the call wrote (what
 * diagnostics-on-write and the ledger key on); it is empty for tools that change nothing.
 */
export interface ToolResult {
  readonly content: readonly ContentPart[];
  readonly isError: boolean;
  readonly changedFiles: readonly string[];
  /** Present exactly when `isError` is true. */
  readonly error?: ResultError;
}

/** What a tool's `execute` may return: a full result, or plain text for the common case. */
export type ToolOutput = ToolResult | string;

/** A successful text result. */
export function textResult(text: string, options: { changedFiles?: readonly string[] } = {}): ToolResult {
  return { content: [{ type: "text", text }], isError: false, changedFiles: options.changedFiles ?? [] };
}

/** A successful result of several parts. */
export function partsResult(
  content: readonly ContentPart[],
  options: { changedFiles?: readonly string[] } = {},
): ToolResult {
  return { content, isError: false, changedFiles: options.changedFiles ?? [] };
}

/** An image part from bytes. */
export function imagePart(data: Uint8Array, mimeType = "image/png"): ImagePart {
  return { type: "image", mimeType, data };
}

/**
 * A failed result. A {@link ToolsError} keeps its code; anything else becomes `TOOL_FAILED` with
 * the thrown message.
 */
export function errorResult(error: unknown, options: { changedFiles?: readonly string[] } = {}): ToolResult {
  const code = ToolsError.isInstance(error) ? String(error.code) : "TOOL_FAILED";
  const message = errorMessage(error);
  return {
    content: [{ type: "text", text: message }],
    isError: true,
    changedFiles: options.changedFiles ?? [],
    error: { code, message },
  };
}

/** Whether `value` has a result's shape (a list of parts, a boolean `isError`, a list of changed files). */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null) return false;
  const result = value as Partial<ToolResult>;
  return (
    Array.isArray(result.content) && typeof result.isError === "boolean" && Array.isArray(result.changedFiles)
  );
}

/**
 * Normalises what `execute` returned into a {@link ToolResult}. Anything else than text or a
 * result (a JavaScript tool returning nothing) is a failed call saying so, not a result that
 * breaks whatever reads it next.
 */
export function toToolResult(output: ToolOutput): ToolResult {
  if (typeof output === "string") return textResult(output);
  if (isToolResult(output)) return output;
  return errorResult(
    new ToolsError({
      code: "TOOL_FAILED",
      message: `the tool returned ${describeValue(output)} instead of text or a result; this is a bug in the tool`,
    }),
  );
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

/** All the text parts of a result, joined by blank lines (images left out). */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("\n\n");
}

/** A copy of `result` with text appended as a new part (used by result wrappers). */
export function appendText(result: ToolResult, text: string): ToolResult {
  return { ...result, content: [...result.content, { type: "text", text }] };
}
