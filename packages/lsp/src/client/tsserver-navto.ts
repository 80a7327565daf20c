import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SymbolKind, type SymbolInformation } from "vscode-languageserver-protocol";
import { parseJsonc } from "../files/jsonc.js";
import { tsserverPosition, tsserverRequestCommand } from "./tsserver-diagnostics.js";

/** One item of tsserver's `navto` answer (1-based line and offset). */
interface NavtoItem {
  name: string;
  kind: string;
  file: string;
  start: { line: number; offset: number };
  end: { line: number; offset: number };
}

/** tsserver's element kinds as typescript-language-server maps them (its `toSymbolKind`). */
const symbolKinds: Readonly<Record<string, SymbolKind>> = {
  "enum member": SymbolKind.Constant,
  "JSX attribute": SymbolKind.Property,
  "local class": SymbolKind.Class,
  "local function": SymbolKind.Function,
  "local var": SymbolKind.Variable,
  "type parameter": SymbolKind.Variable,
  alias: SymbolKind.Variable,
  class: SymbolKind.Class,
  const: SymbolKind.Constant,
  constructor: SymbolKind.Constructor,
  enum: SymbolKind.Enum,
  field: SymbolKind.Field,
  file: SymbolKind.File,
  function: SymbolKind.Function,
  getter: SymbolKind.Method,
  interface: SymbolKind.Interface,
  let: SymbolKind.Variable,
  method: SymbolKind.Method,
  module: SymbolKind.Module,
  parameter: SymbolKind.Variable,
  property: SymbolKind.Property,
  setter: SymbolKind.Method,
  var: SymbolKind.Variable,
};

/**
 * Workspace symbols from tsserver's `navto` without a file, through the pass-through, as
 * typescript-language-server answers `workspace/symbol` (its kinds, no container). The server's
 * own `workspace/symbol` passes tsserver the document it touched last, and tsserver then searches
 * only that file's projects: after a look at a script outside the tsconfig (an inferred project of
 * its own), the tsconfig's symbols were not found. Without a file tsserver searches every project
 * it has loaded (and the configured projects above the open files). `undefined` when tsserver
 * refused the request, for the caller to ask `workspace/symbol` instead.
 */
export async function tsserverWorkspaceSymbols(
  request: <R>(method: string, params: unknown) => Promise<R>,
  query: string,
): Promise<SymbolInformation[] | undefined> {
  const answer = await request<{ success?: boolean; body?: NavtoItem[] } | null>("workspace/executeCommand", {
    command: tsserverRequestCommand,
    arguments: ["navto", { searchValue: query }],
  });
  if (!answer?.success || !Array.isArray(answer.body)) return undefined;
  return answer.body.map((item) => ({
    name: item.name,
    kind: Object.hasOwn(symbolKinds, item.kind) ? symbolKinds[item.kind]! : SymbolKind.Variable,
    location: {
      uri: pathToFileURL(item.file).href,
      range: { start: tsserverPosition(item.start), end: tsserverPosition(item.end) },
    },
  }));
}

/** One project of tsserver's `synchronizeProjectList` answer (its `info`). */
interface ProjectVersion {
  projectName: string;
  version: number;
  isInferred?: boolean;
  languageServiceDisabled?: boolean;
}

/** The projects tsserver last listed for {@link tsserverSingleProject}: passed again, it lists no files. */
export interface KnownProjects {
  projects: { projectName: string; version: number }[];
}

/**
 * Whether tsserver holds exactly one project (its `synchronizeProjectList`, the projects known
 * last passed so that an unchanged one lists no files), with its language service on, an inferred
 * one or a tsconfig naming no other project (`references`: `navto` without a file loads those).
 * Its `workspace/symbol` (`navto` in the projects of the document it touched last, which one
 * project holds) then answers as {@link tsserverWorkspaceSymbols} does, and its cancel reaches
 * tsserver. False when tsserver did not say (an old server, a failure).
 */
export async function tsserverSingleProject(
  request: <R>(method: string, params: unknown) => Promise<R>,
  known: KnownProjects,
): Promise<boolean> {
  const answer = await request<{ success?: boolean; body?: { info?: ProjectVersion }[] } | null>(
    "workspace/executeCommand",
    {
      command: tsserverRequestCommand,
      arguments: ["synchronizeProjectList", { knownProjects: known.projects }],
    },
  ).catch(() => null);
  if (!answer?.success || !Array.isArray(answer.body)) return false;
  const infos = answer.body.flatMap((each) => (each.info ? [each.info] : []));
  known.projects = infos.map(({ projectName, version }) => ({ projectName, version }));
  const only = infos[0];
  if (infos.length !== 1 || answer.body.length !== 1 || only === undefined) return false;
  if (only.languageServiceDisabled === true) return false;
  if (only.isInferred === true) return true;
  return !namesReferences(only.projectName);
}

/**
 * Whether the tsconfig at `path` names other projects (a non-empty `references`), read as
 * tsserver reads it (comments and trailing commas: see `parseJsonc`; `references` is not taken
 * from an `extends`). True when it cannot be read or parsed: not known to name none.
 */
function namesReferences(path: string): boolean {
  let config: unknown;
  try {
    config = parseJsonc(readFileSync(path, "utf8"));
  } catch {
    return true;
  }
  if (typeof config !== "object" || config === null) return true;
  const references = (config as { references?: unknown }).references;
  return references !== undefined && !(Array.isArray(references) && references.length === 0);
}
