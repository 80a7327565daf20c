import { boundList, errorMessage } from "@tools/registry";
import type {
  DocumentSymbol,
  Range,
  SymbolInformation,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import { formatLocation, inExistingFiles, LineReader } from "../format/locations.js";
import { isInside } from "../servers/find-root.js";
import { wholeName } from "../positions/identifier-chars.js";
import { canonicalPath, linkOf, throughLink } from "../files/canonical-path.js";
import { settleDiskEvents } from "../files/disk-events.js";
import type { LanguageClient } from "../client/language-client.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { analysisWatchMs, awaitAnalysis } from "./analysed-documents.js";
import { endSearch, prepareSymbolSearch, reopenOutdated } from "./cross-file-search.js";
import { requireCapability } from "./require-capability.js";
import { startServersForSearch } from "./search-servers.js";
import { describeRootSearch } from "../servers/project-folders.js";
import { someOf } from "../format/some-of.js";
import { boundOutline, byLine, outlineRows } from "../format/outline.js";

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

/**
 * symbols: by `query` across the workspace (≤100), or the outline of `file` (≤200). A query
 * first waits (once per document version, at most the supervisor's diagnostics bound) until each
 * asked server has analysed the documents open on it: servers search only what they analysed.
 */
export async function symbols(input: ActionInput, context: ActionContext): Promise<string> {
  if (input.query !== undefined && input.query.trim() !== "")
    return workspaceSymbols({ ...input, query: input.query.trim() }, context);
  if (input.file === undefined) {
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `action "symbols" needs query (a search of the whole workspace; file, when given, picks the language server: {"action":"symbols","query":"parseConfig","file":"src/app.ts"}) or file alone (that file's outline)`,
    });
  }
  return documentSymbols(input, context);
}

async function documentSymbols(input: ActionInput, context: ActionContext): Promise<string> {
  const file = context.resolvePath(input.file!);
  const { bound } = context;
  if (bound) {
    // The call's bound runs once its server is up (a start has its own bound).
    const started = await context.supervisor.clientFor(file, context.progress);
    // One that answered nothing since its start may still be loading its project (see addressSymbol).
    if (started.hasAnswered()) bound.start();
    bound.waiting(`to send ${context.supervisor.display(file)} to ${started.spec.command}`);
  }
  const { client, uri } = await context.supervisor.open(file, false, context.progress);
  requireCapability(client, "document_symbols");
  bound?.waiting(`for ${client.spec.command} to answer textDocument/documentSymbol`);
  const answer = await client.request<DocumentSymbol[] | SymbolInformation[] | null>(
    "textDocument/documentSymbol",
    {
      textDocument: { uri },
    },
    undefined,
    context.signal,
  );
  const list = answer ?? [];
  const display = context.supervisor.display(file);
  if (list.length === 0) return `no symbols in ${display}`;
  let listed: { items: string[]; note: string };
  let count: number;
  if (list.every((symbol) => "selectionRange" in symbol)) {
    const rows = outlineRows(
      list as DocumentSymbol[],
      (symbol, depth) =>
        `${"  ".repeat(depth)}${kindName(symbol.kind)} ${symbol.name}${symbol.detail ? ` ${symbol.detail}` : ""}  :${symbol.selectionRange.start.line + 1}`,
    );
    listed = boundOutline(rows, documentSymbolsLimit);
    count = rows.length;
  } else {
    // Flat answers (SymbolInformation): a container named is all there is of the structure.
    const rows = byLine<DocumentSymbol | SymbolInformation>(list).map((symbol) =>
      "location" in symbol
        ? `${symbol.containerName ? "  " : ""}${kindName(symbol.kind)} ${symbol.name}  :${symbol.location.range.start.line + 1}`
        : `${kindName(symbol.kind)} ${symbol.name}  :${symbol.selectionRange.start.line + 1}`,
    );
    listed = boundList(rows, documentSymbolsLimit, "symbols");
    count = rows.length;
  }
  const { items, note } = listed;
  return `${count} symbols in ${display}:\n${items.join("\n")}${note ? `\n${note}` : ""}`;
}

async function workspaceSymbols(input: ActionInput, context: ActionContext): Promise<string> {
  await settleDiskEvents();
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
    const offers = (client: LanguageClient) => client.capabilities.workspaceSymbolProvider !== undefined;
    const running = context.supervisor.runningClients();
    clients = running.filter(offers);
    if (clients.length === 0) {
      // Before any server runs: those of the working directory's project roots.
      const started = await startServersForSearch(context);
      clients = started.clients.filter(offers);
      if (clients.length === 0) {
        const none =
          started.clients.length > 0 || running.length > 0
            ? `the servers (${[...new Set([...running, ...started.clients].map((client) => client.spec.command))].join(", ")}) do not offer workspace symbols`
            : started.failures.length > 0
              ? `no language server could be started for the working directory's projects (${started.failures.join("; ")})`
              : `no project root with a language server was found (${describeRootSearch(context.supervisor.rootSearch())}; lsp status lists what is missing)`;
        throw new LspError({
          code: "LSP_BAD_ARGUMENTS",
          message: `${none}; add file (any file of the project) so the right server is started, e.g. {"action":"symbols","query":"${input.query}","file":"src/index.ts"}`,
        });
      }
    }
  }
  const scope = input.file === undefined ? searchScope(clients, context) : "";
  const { supervisor } = context;
  // A server searches only what it has analysed (clangd indexes an open file once its AST is
  // built, pyright finds nothing in a file it has not checked): the documents open on it first.
  const unindexed: (string | undefined)[] = clients.map(() => undefined);
  const reopened: string[] = [];
  const bounds = { waitMs: supervisor.diagnosticsTimeoutMs, watchMs: analysisWatchMs };
  // One server failing (an index that did not load, a timeout) costs only its own answers.
  // Each server's steps share the call's bound; one that reaches it fails alone. A server that
  // answered nothing since its start may still be loading its project: then none is bounded so.
  if (clients.every((client) => client.hasAnswered())) context.bound?.start();
  const settled = await Promise.allSettled(
    clients.map((client, index) => {
      const lane = context.bound?.lane();
      const own: ActionContext = lane ? { ...context, bound: lane } : context;
      const search = async () => {
        const { command } = client.spec;
        // Open documents and files changed on disk since, brought up to date first: a symbol a
        // shell command added (or removed) is searched for in the text as it is now.
        lane?.waiting(`to send the files changed on disk to ${command}`);
        await supervisor.resyncOpen(client);
        // clangd keeps a closed file's symbols as they were: one changed since is opened again.
        const refreshed = await reopenOutdated(client, own);
        // And it searches only its open files: those holding the query are opened too.
        const holding = await prepareSymbolSearch(client, input.query!, own);
        try {
          lane?.waiting(`for ${command} to analyse the files open on it`);
          const late = await awaitAnalysis(client, client.openUris(), bounds);
          if (late.length > 0) unindexed[index] = unindexedNote(client, late, supervisor);
          reopened.push(...refreshed.notes, ...holding.notes);
          lane?.waiting(`for ${command} to answer workspace/symbol`);
          return await client.workspaceSymbols(input.query!, context.signal);
        } finally {
          await endSearch(client, holding);
          await endSearch(client, refreshed);
        }
      };
      return lane ? lane.run(search()) : search();
    }),
  );
  const failures: string[] = [];
  const found: (SymbolInformation | WorkspaceSymbol)[] = [];
  settled.forEach((answer, index) => {
    if (answer.status === "fulfilled") found.push(...(answer.value ?? []));
    else
      failures.push(
        `${clients[index]!.spec.language} (${clients[index]!.spec.command}): ${errorMessage(answer.reason)}`,
      );
  });
  if (failures.length === settled.length) {
    if (failures.length === 1) throw (settled[0] as PromiseRejectedResult).reason;
    throw new LspError({
      code: "LSP_REQUEST_FAILED",
      message: `no server answered workspace/symbol: ${failures.join("; ")}`,
    });
  }
  const caveats =
    (failures.length > 0 ? `\n(no answer from ${failures.join("; ")})` : "") +
    [...unindexed, ...reopened].map((note) => (note ? `\n(${note})` : "")).join("");
  // A root reached through a symlinked folder: a server answering with real paths (clangd) is
  // shown through the link, as the root was reached.
  const links = clients.flatMap((client) => linkOf(client.root) ?? []);
  const pathOf = (uri: string): string | undefined => {
    const path = pathOfUri(uri, supervisor);
    return path === undefined || links.length === 0 ? path : throughLink(path, links);
  };
  // clangd keeps the symbols of a file closed on it after the file is deleted.
  const { present, gone } = inExistingFiles(distinctSymbols(found, pathOf), (symbol) =>
    pathOf(symbol.location.uri),
  );
  const goneNote =
    gone > 0
      ? `\n(${gone} in files that no longer exist left out: the server's index is older than the disk)`
      : "";
  if (present.length === 0) return `no workspace symbols match '${input.query}'${goneNote}${caveats}${scope}`;
  const located = rankWorkspaceSymbols(present, input.query!, pathOf, supervisor.workingDirectory);
  if (located.symbols.length === 0) {
    return `no workspace symbols match '${input.query}' (${located.dropped} loose matches outside the working directory not listed)${goneNote}${caveats}${scope}`;
  }
  const reader = new LineReader(supervisor.texts);
  const display = (path: string) => supervisor.display(path);
  const { items, note } = boundList(located.symbols, workspaceSymbolsLimit, "symbols");
  const rows = items.map(({ symbol, file, range }) => {
    const where =
      range && file
        ? formatLocation(
            { file, range: atName(range, symbol.name, reader.line(file, range.start.line)) },
            display,
            reader,
          )
        : file
          ? display(file)
          : symbol.location.uri;
    return `${kindName(symbol.kind)} ${symbol.name}${symbol.containerName ? ` (in ${symbol.containerName})` : ""}  ${where}`;
  });
  const notes = [
    ...(located.outside > 0
      ? [`${located.outside} outside the working directory, listed after the project's close matches`]
      : []),
    ...(located.dropped > 0
      ? [
          `${located.dropped} loose matches ${located.outside > 0 ? "there" : "outside the working directory"} not listed`,
        ]
      : []),
  ];
  const shown = located.symbols.length;
  return `${shown} symbol${shown === 1 ? "" : "s"} match${shown === 1 ? "es" : ""} '${input.query}'${notes.length > 0 ? ` (${notes.join("; ")})` : ""}:\n${rows.join("\n")}${note ? `\n${note}` : ""}${goneNote}${caveats}${scope}`;
}

/** Says which open documents `client` may not have indexed when asked (their analysis not seen). */
function unindexedNote(
  client: LanguageClient,
  uris: readonly string[],
  supervisor: ActionContext["supervisor"],
): string {
  const files = uris.map((uri) => {
    const path = pathOfUri(uri, supervisor);
    return path === undefined ? uri : supervisor.display(path);
  });
  const listed = someOf(files, 3);
  return `${client.spec.command} may not have indexed ${listed} yet: it had not reported its analysis when asked, so names there may be missing; ask again in a moment`;
}

/**
 * Without `file`, only running servers are asked: names the project roots whose server has not
 * started, so "no match" is not taken for "not in the project".
 */
function searchScope(clients: readonly LanguageClient[], context: ActionContext): string {
  const { supervisor } = context;
  // A root reached through a symlink is its real folder's too.
  const asked = new Set(
    clients.map((client) => `${client.spec.language}\u0000${canonicalPath(client.root)}`),
  );
  // A module of a workspace is searched by the workspace's server.
  const notAsked = [
    ...new Set(
      supervisor
        .projectRoots()
        .roots.filter(
          ({ spec, root, workspace }) =>
            !asked.has(`${spec.language}\u0000${canonicalPath(workspace ?? root)}`),
        )
        .map(({ spec, root, workspace }) => `${spec.language} (${supervisor.display(workspace ?? root)})`),
    ),
  ];
  if (notAsked.length === 0) return "";
  const listed = someOf(notAsked, 5);
  return `\n(searched ${clients.map((client) => `${client.spec.language} (${supervisor.display(client.root)})`).join(", ")}; not searched, their servers not running: ${listed}; add file of one to search it)`;
}

/** A workspace symbol with the path of its file (undefined for a non-file URI) and its range when given. */
export interface LocatedSymbol {
  readonly symbol: SymbolInformation | WorkspaceSymbol;
  readonly file: string | undefined;
  readonly range: Range | undefined;
}

/**
 * Each symbol once by (file, range, name, kind), the first kept: in a monorepo whose packages
 * are roots of their own, a file one package imports from another is in both servers' programs,
 * and both list its symbols. `pathOf` gives a `file:` URI's path (undefined for another URI,
 * then compared as it is); a location without a range counts as one with an empty range.
 */
export function distinctSymbols<T extends SymbolInformation | WorkspaceSymbol>(
  found: readonly T[],
  pathOf: (uri: string) => string | undefined,
): T[] {
  const seen = new Set<string>();
  return found.filter((symbol) => {
    const { uri } = symbol.location;
    const range = "range" in symbol.location ? symbol.location.range : undefined;
    // A symbol without a range (a server resolves it later) is told apart by nothing but its
    // name and kind in its file: same-named methods of two classes would be merged, so it is kept.
    if (!range) return true;
    const at = `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
    const key = [pathOf(uri) ?? uri, at, symbol.name, symbol.kind].join("\u0000");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * How well a symbol's name answers the query: 0 the name (or its last dotted part) is the
 * query, 1 the same ignoring case, 2 holds it, 3 holds it ignoring case, 4 a fuzzy match only
 * (gopls's default matcher: `greet` finds `PTRACE_GETREGSET`).
 */
export function matchQuality(name: string, query: string): number {
  const last = name.slice(Math.max(name.lastIndexOf(".") + 1, name.lastIndexOf("::") + 2));
  if (name === query || last === query) return 0;
  const lower = query.toLowerCase();
  if (name.toLowerCase() === lower || last.toLowerCase() === lower) return 1;
  if (name.includes(query)) return 2;
  if (name.toLowerCase().includes(lower)) return 3;
  return 4;
}

/**
 * Workspace symbols: the project's names holding the query, then those outside the working
 * directory (servers also search what the project depends on — gopls the standard library,
 * pyright the interpreter's), then the project's loose fuzzy matches; each group by
 * {@link matchQuality}, servers' order within one quality. Fuzzy matches outside would fill
 * the list: they are counted, not kept.
 */
export function rankWorkspaceSymbols(
  found: readonly (SymbolInformation | WorkspaceSymbol)[],
  query: string,
  pathOf: (uri: string) => string | undefined,
  workingDirectory: string,
): { symbols: LocatedSymbol[]; outside: number; dropped: number } {
  type Ranked = { located: LocatedSymbol; quality: number };
  const close: Ranked[] = [];
  const beyond: Ranked[] = [];
  const loose: Ranked[] = [];
  let dropped = 0;
  for (const symbol of found) {
    const file = pathOf(symbol.location.uri);
    const range = "range" in symbol.location ? symbol.location.range : undefined;
    const quality = matchQuality(symbol.name, query);
    const entry = { located: { symbol, file, range }, quality };
    if (file !== undefined && isInside(workingDirectory, file)) (quality < 4 ? close : loose).push(entry);
    else if (quality < 4) beyond.push(entry);
    else dropped += 1;
  }
  const ranked = (group: Ranked[]) =>
    group.sort((x, y) => x.quality - y.quality).map(({ located }) => located);
  return {
    symbols: [...ranked(close), ...ranked(beyond), ...ranked(loose)],
    outside: beyond.length,
    dropped,
  };
}

/**
 * `range` starting at the symbol's name when its first line holds the name as a whole word at
 * or after the range's start: typescript-language-server gives a declaration's whole span
 * (`export class Square …` from column 1), where the other servers give the name.
 */
function atName(range: Range, name: string, line: string): Range {
  const pattern = new RegExp(wholeName(name).source, "gu");
  pattern.lastIndex = range.start.character;
  const found = pattern.exec(line);
  if (!found || found.index === range.start.character) return range;
  return { ...range, start: { line: range.start.line, character: found.index } };
}

function pathOfUri(uri: string, supervisor: ActionContext["supervisor"]): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return supervisor.pathOf(uri);
  } catch {
    return undefined;
  }
}
