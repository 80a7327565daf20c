import { boundList } from "@tools/registry";
import type { DocumentSymbol, SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import { formatLocation, LineReader, toPlainLocations } from "../format/locations.js";
import type { LanguageClient } from "../client/language-client.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { requireCapability } from "./require-capability.js";

/** Most workspace symbols listed. */
export const workspaceSymbolsLimit = 100;
/** Most document symbols listed. */
export const documentSymbolsLimit = 200;

const kindNames = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

function kindName(kind: number): string {
  return kindNames[kind] ?? "symbol";
}

/** symbols: by `query` across the workspace (≤100), or the outline of `file` (≤200). */
export async function symbols(input: ActionInput, context: ActionContext): Promise<string> {
  if (input.query !== undefined && input.query.trim() !== "") return workspaceSymbols(input, context);
  if (input.file === undefined) {
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `action "symbols" needs query (workspace search, e.g. {"action":"symbols","query":"parseConfig","file":"src/app.ts"}) or file (that file's outline)`,
    });
  }
  return documentSymbols(input, context);
}

async function documentSymbols(input: ActionInput, context: ActionContext): Promise<string> {
  const file = context.resolvePath(input.file!);
  const { client, uri } = await context.supervisor.open(file, false, context.progress);
  requireCapability(client, "document_symbols");
  const answer = await client.request<DocumentSymbol[] | SymbolInformation[] | null>(
    "textDocument/documentSymbol",
    {
      textDocument: { uri },
    },
    undefined,
    context.signal,
  );
  const rows: string[] = [];
  const visit = (symbol: DocumentSymbol, depth: number): void => {
    rows.push(
      `${"  ".repeat(depth)}${kindName(symbol.kind)} ${symbol.name}${symbol.detail ? ` ${symbol.detail}` : ""}  :${symbol.selectionRange.start.line + 1}`,
    );
    for (const child of symbol.children ?? []) visit(child, depth + 1);
  };
  for (const symbol of answer ?? []) {
    if ("selectionRange" in symbol) visit(symbol, 0);
    else
      rows.push(
        `${symbol.containerName ? "  " : ""}${kindName(symbol.kind)} ${symbol.name}  :${symbol.location.range.start.line + 1}`,
      );
  }
  const display = context.supervisor.display(file);
  if (rows.length === 0) return `no symbols in ${display}`;
  const { items, note } = boundList(rows, documentSymbolsLimit, "symbols");
  return `${rows.length} symbols in ${display}:\n${items.join("\n")}${note ? `\n${note}` : ""}`;
}

async function workspaceSymbols(input: ActionInput, context: ActionContext): Promise<string> {
  let clients: LanguageClient[];
  if (input.file !== undefined) {
    const { client } = await context.supervisor.open(
      context.resolvePath(input.file),
      false,
      context.progress,
    );
    requireCapability(client, "workspace_symbols");
    clients = [client];
  } else {
    clients = context.supervisor
      .runningClients()
      .filter((client) => client.capabilities.workspaceSymbolProvider);
    if (clients.length === 0) {
      throw new LspError({
        code: "LSP_BAD_ARGUMENTS",
        message: `no language server is running yet; add file (any file of the project) so the right server is started, e.g. {"action":"symbols","query":"${input.query}","file":"src/index.ts"}`,
      });
    }
  }
  const answers = await Promise.all(
    clients.map((client) =>
      client.request<(SymbolInformation | WorkspaceSymbol)[] | null>(
        "workspace/symbol",
        {
          query: input.query,
        },
        undefined,
        context.signal,
      ),
    ),
  );
  const found = answers.flatMap((answer) => answer ?? []);
  if (found.length === 0) return `no workspace symbols match '${input.query}'`;
  const reader = new LineReader(context.supervisor.texts);
  const display = (path: string) => context.supervisor.display(path);
  const { items, note } = boundList(found, workspaceSymbolsLimit, "symbols");
  const rows = items.map((symbol) => {
    const location =
      "range" in symbol.location
        ? toPlainLocations(symbol.location)[0]
        : { file: "", range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
    const where =
      location && location.file !== ""
        ? formatLocation(location, display, reader)
        : display(new URL(symbol.location.uri).pathname);
    return `${kindName(symbol.kind)} ${symbol.name}${symbol.containerName ? ` (in ${symbol.containerName})` : ""}  ${where}`;
  });
  return `${found.length} symbols match '${input.query}':\n${rows.join("\n")}${note ? `\n${note}` : ""}`;
}
