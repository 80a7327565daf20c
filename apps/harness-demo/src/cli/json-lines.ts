import { countNoun, type ContentPart, type ToolResult } from "@tools/registry";
import { jsonErrorOffset } from "../internal/json-error-offset.js";

/** One request line of the JSON-lines mode. */
export interface JsonLinesRequest {
  readonly id: string | number | null;
  readonly surface: string;
  readonly tool: string;
  readonly args: unknown;
}

/** A content part on the wire: images carry base64 data. */
export type WirePart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly mimeType: string; readonly data: string };

/** One response line of the JSON-lines mode. */
export interface JsonLinesResponse {
  readonly id: string | number | null;
  readonly ok: boolean;
  readonly content: readonly WirePart[];
  readonly error: string | null;
}

/** A request, or why the line is not one (with the id when it could be read). */
export type ParsedRequest =
  | { readonly ok: true; readonly request: JsonLinesRequest }
  | { readonly ok: false; readonly id: string | number | null; readonly error: string };

const expected = 'expected {"id": …, "surface": "main", "tool": "read", "args": {…}}';

/** The fields of a request line. */
export const requestFields = ["id", "surface", "tool", "args"] as const;

/** Where a field other harnesses' formats use belongs in a request (OpenAI, Anthropic, MCP). */
const fieldHints: Readonly<Record<string, string>> = {
  arguments: "args",
  input: "args",
  params: "args",
  parameters: "args",
  name: "tool",
  function: "tool",
};

/** Unknown fields named at most in one error, and the characters of each name shown. */
const maxFieldsNamed = 5;
const maxFieldNameChars = 40;

/**
 * What is wrong with the fields of a request object that are not a request's (`known`), or
 * undefined when there are none: `unknown field "arguments" (it goes in "args")`. A field in another format's spelling (`arguments`, `input`, `name`) says
 * where it goes. Only the names are given, never their values (a mistyped card reply may hold a
 * password).
 */
export function unknownFieldsError(
  record: Readonly<Record<string, unknown>>,
  known: readonly string[],
): string | undefined {
  const unknown = Object.keys(record).filter((field) => !known.includes(field));
  if (unknown.length === 0) return undefined;
  const named = unknown.slice(0, maxFieldsNamed).map((field) => {
    const hint = Object.hasOwn(fieldHints, field) ? fieldHints[field] : undefined;
    const name = JSON.stringify(
      field.length > maxFieldNameChars ? `${field.slice(0, maxFieldNameChars)}…` : field,
    );
    return hint !== undefined && known.includes(hint) ? `${name} (it goes in "${hint}")` : name;
  });
  const more = unknown.length - named.length;
  const rest = more > 0 ? ` and ${more} more` : "";
  return `unknown ${countNoun(unknown.length, "fields")} ${named.join(", ")}${rest}`;
}

function readId(value: unknown): string | number | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
  return undefined;
}

/**
 * Parses one line of input. Never throws. A leading UTF-8 byte order mark (an editor's or a
 * Windows tool's, on the first line) is not part of the request and is skipped. The error for a
 * line that is not JSON names only the offset of the fault, never the line's text: the line may
 * be a mistyped card reply holding a password.
 */
export function parseRequestLine(line: string): ParsedRequest {
  const text = line.replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's own message may quote the input; only the position goes out.
    const offset = jsonErrorOffset(text) ?? 0;
    const where =
      offset >= text.length
        ? `: it ends early, at character offset ${offset}`
        : ` at character offset ${offset}`;
    return {
      ok: false,
      id: null,
      error: `malformed request line: not valid JSON${where} (counting from 0); ${expected}`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, id: null, error: `malformed request line: not a JSON object; ${expected}` };
  }
  const record = value as Record<string, unknown>;
  const id = readId(record["id"]);
  if (id === undefined) {
    return {
      ok: false,
      id: null,
      error: `malformed request: "id" must be a string or a number; ${expected}`,
    };
  }
  const unknownFields = unknownFieldsError(record, requestFields);
  if (unknownFields !== undefined) {
    return { ok: false, id, error: `malformed request: ${unknownFields}; nothing was run; ${expected}` };
  }
  const tool = record["tool"];
  if (typeof tool !== "string" || tool === "") {
    return { ok: false, id, error: `malformed request: "tool" must be a non-empty string; ${expected}` };
  }
  const surface = record["surface"] ?? "main";
  if (typeof surface !== "string") {
    return {
      ok: false,
      id,
      error: `malformed request: "surface" must be a string (main, plan, readonly or worker); ${expected}`,
    };
  }
  return { ok: true, request: { id, surface, tool, args: record["args"] ?? {} } };
}

function wirePart(part: ContentPart): WirePart {
  if (part.type === "text") return { type: "text", text: part.text };
  return { type: "image", mimeType: part.mimeType, data: Buffer.from(part.data).toString("base64") };
}

/** The response line for a finished call. */
export function resultResponse(id: string | number | null, result: ToolResult): JsonLinesResponse {
  return {
    id,
    ok: !result.isError,
    content: result.content.map(wirePart),
    error: result.isError ? (result.error?.message ?? "the call failed") : null,
  };
}

/**
 * The response line for a request that could not be made. Like a refused call, its content holds
 * the message as a text part, so a harness can always forward `content` to the model.
 */
export function errorResponse(id: string | number | null, error: string): JsonLinesResponse {
  return { id, ok: false, content: [{ type: "text", text: error }], error };
}
