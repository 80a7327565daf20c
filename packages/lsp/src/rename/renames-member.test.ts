import { describe, expect, it } from "vitest";
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import type { LanguageClient } from "../client/language-client.js";
import { isMemberKind, renamedKind } from "./renames-member.js";

const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

/** A client answering documentSymbol from `symbols` per uri (only what `renamedKind` uses). */
function clientWith(symbols: Record<string, DocumentSymbol[] | SymbolInformation[]>): {
  client: LanguageClient;
  asked: string[];
} {
  const asked: string[] = [];
  const client = {
    capabilities: { documentSymbolProvider: true },
    request: (_method: string, params: { textDocument: { uri: string } }) => {
      asked.push(params.textDocument.uri);
      return Promise.resolve(symbols[params.textDocument.uri] ?? null);
    },
  } as unknown as LanguageClient;
  return { client, asked };
}

const symbol = (
  name: string,
  kind: SymbolKind,
  selection: ReturnType<typeof range>,
  children: DocumentSymbol[] = [],
) => ({ name, kind, range: selection, selectionRange: selection, children }) satisfies DocumentSymbol;

describe("renamedKind", () => {
  it("finds the declaration the edit renames among the edited files' symbols, nested ones too", async () => {
    const store = symbol("Store", SymbolKind.Class, range(0, 13, 18), [
      symbol("remove", SymbolKind.Method, range(1, 2, 8)),
    ]);
    const { client, asked } = clientWith({ "file:///w/store.ts": [store] });
    const edit = {
      changes: {
        "file:///w/use.ts": [{ range: range(2, 6, 12), newText: "delete" }],
        "file:///w/store.ts": [{ range: range(1, 2, 8), newText: "delete" }],
      },
    };
    const opened: string[] = [];
    const kind = await renamedKind(client, edit, "remove", async (uri) => void opened.push(uri));
    expect(kind).toBe(SymbolKind.Method);
    expect(isMemberKind(kind)).toBe(true);
    expect(asked).toEqual(["file:///w/use.ts", "file:///w/store.ts"]);
    expect(opened).toEqual(asked);
  });

  it("tells a variable from a member, and knows nothing of a local (no symbol for it)", async () => {
    const flat: SymbolInformation[] = [
      {
        name: "count",
        kind: SymbolKind.Variable,
        location: { uri: "file:///w/a.ts", range: range(0, 0, 20) },
      },
    ];
    const { client } = clientWith({ "file:///w/a.ts": flat });
    const edit = { changes: { "file:///w/a.ts": [{ range: range(0, 13, 18), newText: "delete" }] } };
    const kind = await renamedKind(client, edit, "count", async () => undefined);
    expect(kind).toBe(SymbolKind.Variable);
    expect(isMemberKind(kind)).toBe(false);
    const local = { changes: { "file:///w/b.ts": [{ range: range(3, 4, 9), newText: "delete" }] } };
    expect(await renamedKind(client, local, "count", async () => undefined)).toBeUndefined();
    expect(isMemberKind(undefined)).toBe(false);
  });
});
