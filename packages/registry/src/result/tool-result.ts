import { ToolsError, type ToolsErrorCode, errorMessage } from "../errors/tools-error.js";
import { describeValue } from "../objects/describe-value.js";

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

/**
 * Why a call failed, when it did: the code is for harnesses, the message for the model. The code is
 * one of the registry's own (`RegistryErrorCode`, offered by the editor) or a tool package's
 * (`LSP_TIMEOUT`, `DEBUG_NO_SESSION`, …), so a harness compares it as text.
 */
export interface ResultError {
  readonly code: ToolsErrorCode;
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
 * result (a JavaScript tool returning nothing, a part without its text) is a failed call saying
 * what was wrong, not a result that breaks whatever reads it next; an error result without its
 * `error` gets one (`TOOL_FAILED`, its text), since harnesses read the code there.
 */
export function toToolResult(output: ToolOutput): ToolResult {
  if (typeof output === "string") return textResult(output);
  const problem = resultProblem(output);
  if (problem === undefined) {
    const result = output;
    if (!result.isError || isResultError(result.error)) return result;
    const message = resultText(result) || "the tool reported an error without a message";
    return { ...result, error: { code: "TOOL_FAILED", message } };
  }
  return errorResult(
    new ToolsError({
      code: "TOOL_FAILED",
      message: `the tool returned ${problem} instead of text or a result ({ content, isError, changedFiles }); this is a bug in the tool`,
    }),
  );
}

/** What keeps `value` from being a result, or undefined when it is one. */
function resultProblem(value: unknown): string | undefined {
  if (!isToolResult(value)) return describeValue(value, "an object that is not a result");
  const index = value.content.findIndex((part) => !isContentPart(part));
  if (index >= 0) return `a result whose content[${index}] is no text or image part`;
  if (!value.changedFiles.every((file) => typeof file === "string")) {
    return "a result whose changedFiles are not all paths";
  }
  return undefined;
}

function isContentPart(part: unknown): boolean {
  if (typeof part !== "object" || part === null) return false;
  const candidate = part as { type?: unknown; text?: unknown; mimeType?: unknown; data?: unknown };
  if (candidate.type === "text") return typeof candidate.text === "string";
  return (
    candidate.type === "image" && typeof candidate.mimeType === "string" && ArrayBuffer.isView(candidate.data)
  );
}

function isResultError(error: unknown): boolean {
  const candidate = error as Partial<ResultError> | undefined;
  return typeof candidate?.code === "string" && typeof candidate.message === "string";
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
