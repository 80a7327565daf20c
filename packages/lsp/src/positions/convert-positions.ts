import type { TextPosition } from "./text-view.js";

/** Converts one position of the document `uri`, or returns it as it is. */
export type PositionConverter = (uri: string, position: TextPosition) => TextPosition;

/**
 * A copy of the LSP value `value` (request params, a result, a publish) with every position and
 * range in it converted by `convert`, each for the document it belongs to: the nearest `uri`
 * around it (a Location, a WorkspaceSymbol's location, a publish), `targetUri` for a
 * LocationLink's target ranges, the document of a TextDocumentEdit, the keys of a
 * WorkspaceEdit's `changes` and of a pull's `relatedDocuments`, else `uri` (the request's
 * document: a hover's range, document symbols, a diagnostic's range). Objects holding no position
 * come back as they are.
 */
export function convertPositions<T>(value: T, uri: string | undefined, convert: PositionConverter): T {
  return walk(value, uri, convert) as T;
}

function walk(value: unknown, uri: string | undefined, convert: PositionConverter): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const converted = walk(item, uri, convert);
      if (converted !== item) (copy ??= [...value])[index] = converted;
    });
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  if (isPosition(record)) return uri === undefined ? value : convert(uri, record);
  const own = typeof record.uri === "string" ? record.uri : (textDocumentUri(record.textDocument) ?? uri);
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    if (typeof item !== "object" || item === null) continue;
    let converted: unknown;
    if ((key === "changes" || key === "relatedDocuments") && !Array.isArray(item)) {
      converted = byUri(item as Record<string, unknown>, convert);
    } else if (key === "targetRange" || key === "targetSelectionRange") {
      const target = typeof record.targetUri === "string" ? record.targetUri : own;
      converted = walk(item, target, convert);
    } else if (key === "textDocument") {
      continue;
    } else {
      converted = walk(item, own, convert);
    }
    if (converted !== item) (copy ??= { ...record })[key] = converted;
  }
  return copy ?? value;
}

function byUri(map: Record<string, unknown>, convert: PositionConverter): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [uri, item] of Object.entries(map)) {
    const converted = walk(item, uri, convert);
    if (converted !== item) (copy ??= { ...map })[uri] = converted;
  }
  return copy ?? map;
}

function isPosition(record: Record<string, unknown>): record is TextPosition & Record<string, unknown> {
  return typeof record.line === "number" && typeof record.character === "number";
}

function textDocumentUri(value: unknown): string | undefined {
  const uri = (value as { uri?: unknown } | null | undefined)?.uri;
  return typeof value === "object" && typeof uri === "string" ? uri : undefined;
}
