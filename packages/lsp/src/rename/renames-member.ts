import {
  SymbolKind,
  type DocumentSymbol,
  type Range,
  type SymbolInformation,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";

/** Symbol kinds of members: what a reserved word may name in TypeScript and JavaScript. */
const memberKinds: ReadonlySet<SymbolKind> = new Set([
  SymbolKind.Method,
  SymbolKind.Property,
  SymbolKind.Field,
  SymbolKind.EnumMember,
]);

/** The ranges the edit's text edits replace, per file uri (edited files in the edit's order). */
function editedRanges(edit: WorkspaceEdit): Map<string, Range[]> {
  const ranges = new Map<string, Range[]>();
  const add = (uri: string, range: Range): void => {
    const list = ranges.get(uri);
    if (list) list.push(range);
    else ranges.set(uri, [range]);
  };
  if (edit.documentChanges) {
    for (const change of edit.documentChanges)
      if ("textDocument" in change) for (const text of change.edits) add(change.textDocument.uri, text.range);
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {}))
      for (const text of edits) add(uri, text.range);
  }
  return ranges;
}

const sameRange = (a: Range, b: Range): boolean =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

const within = (inner: Range, outer: Range): boolean =>
  (inner.start.line > outer.start.line ||
    (inner.start.line === outer.start.line && inner.start.character >= outer.start.character)) &&
  (inner.end.line < outer.end.line ||
    (inner.end.line === outer.end.line && inner.end.character <= outer.end.character));

/**
 * The kind of the declaration a rename's edit renames, as the server's document symbols of the
 * edited files tell it: the symbol named `name` whose name range (a flat answer: whose range) holds
 * one of the edit's ranges. `open` is awaited before a file other than the one asked about is
 * asked (a server may answer only for open files). Undefined when no edited file declares it
 * (a local, a parameter: servers list no symbol for them) or the server offers no symbols.
 */
export async function renamedKind(
  client: LanguageClient,
  edit: WorkspaceEdit,
  name: string,
  open: (uri: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<SymbolKind | undefined> {
  if (!client.capabilities.documentSymbolProvider) return undefined;
  for (const [uri, ranges] of editedRanges(edit)) {
    await open(uri);
    const symbols = await client
      .request<DocumentSymbol[] | SymbolInformation[] | null>(
        "textDocument/documentSymbol",
        { textDocument: { uri } },
        undefined,
        signal,
      )
      .catch(() => null);
    const kind = symbols ? kindIn(symbols, name, ranges) : undefined;
    if (kind !== undefined) return kind;
  }
  return undefined;
}

function kindIn(
  symbols: readonly (DocumentSymbol | SymbolInformation)[],
  name: string,
  ranges: readonly Range[],
): SymbolKind | undefined {
  for (const symbol of symbols) {
    if ("location" in symbol) {
      if (symbol.name === name && ranges.some((range) => within(range, symbol.location.range)))
        return symbol.kind;
      continue;
    }
    if (
      ranges.some(
        (range) =>
          sameRange(range, symbol.selectionRange) ||
          (symbol.name === name && within(range, symbol.selectionRange)),
      )
    )
      return symbol.kind;
    const inner = symbol.children ? kindIn(symbol.children, name, ranges) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Whether a symbol of `kind` is a member (a method, property, field or enum member). */
export function isMemberKind(kind: SymbolKind | undefined): boolean {
  return kind !== undefined && memberKinds.has(kind);
}
