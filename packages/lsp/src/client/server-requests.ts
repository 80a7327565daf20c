import { fileURLToPath, pathToFileURL } from "node:url";
import {
  FileChangeType,
  WatchKind,
  type DidChangeWatchedFilesRegistrationOptions,
} from "vscode-languageserver-protocol";
import { globToRegExp } from "./glob-pattern.js";

/** One glob of a `workspace/didChangeWatchedFiles` registration. */
export interface FileWatcherRule {
  /** Matches an absolute path with `/` separators. */
  readonly pattern: RegExp;
  /** Folder a relative pattern is anchored at; a string pattern is also tried against the path relative to the root. */
  readonly base: string | undefined;
  /** `WatchKind` bits: the changes asked for. */
  readonly kind: WatchKind;
}

/** What the server told us through its own requests. */
export interface ServerRequestState {
  /** Identifiers of dynamically registered `textDocument/diagnostic` providers ("" for none). */
  readonly pullIdentifiers: Set<string>;
  /** Registered file watchers by registration id (`workspace/didChangeWatchedFiles`). */
  readonly fileWatchers: Map<string, readonly FileWatcherRule[]>;
}

/** A new, empty {@link ServerRequestState}. */
export function newServerRequestState(): ServerRequestState {
  return { pullIdentifiers: new Set(), fileWatchers: new Map() };
}

/** The rules of one registration; globs that are neither a string nor a relative pattern are dropped. */
function watcherRules(
  options: Partial<DidChangeWatchedFilesRegistrationOptions> | undefined,
): FileWatcherRule[] {
  const rules: FileWatcherRule[] = [];
  for (const watcher of options?.watchers ?? []) {
    const glob: unknown = watcher.globPattern;
    const kind = watcher.kind ?? WatchKind.Create | WatchKind.Change | WatchKind.Delete;
    if (typeof glob === "string") {
      rules.push({ pattern: globToRegExp(glob), base: undefined, kind });
      continue;
    }
    const relative = glob as { baseUri?: string | { uri?: string }; pattern?: string } | undefined;
    const baseUri = typeof relative?.baseUri === "string" ? relative.baseUri : relative?.baseUri?.uri;
    if (typeof relative?.pattern !== "string" || typeof baseUri !== "string") continue;
    try {
      rules.push({ pattern: globToRegExp(relative.pattern), base: fileURLToPath(baseUri), kind });
    } catch {
      // Not a file: URI; nothing on this machine can match it.
    }
  }
  return rules;
}

/** The `WatchKind` bit of a change. */
const kindOf = {
  [FileChangeType.Created]: WatchKind.Create,
  [FileChangeType.Changed]: WatchKind.Change,
  [FileChangeType.Deleted]: WatchKind.Delete,
} as const;

/** True when a rule of `state` asks for changes of `type` to `path`. */
export function watchedBy(
  state: ServerRequestState,
  root: string,
  path: string,
  type: FileChangeType,
): boolean {
  const bit = kindOf[type];
  for (const rules of state.fileWatchers.values()) {
    for (const rule of rules) {
      if ((rule.kind & bit) === 0) continue;
      if (rule.base !== undefined) {
        if (path.startsWith(`${rule.base}/`) && rule.pattern.test(path.slice(rule.base.length + 1)))
          return true;
      } else if (
        rule.pattern.test(path) ||
        (path.startsWith(`${root}/`) && rule.pattern.test(path.slice(root.length + 1)))
      ) {
        return true;
      }
    }
  }
  return false;
}

interface Context {
  readonly settings: Record<string, unknown>;
  readonly root: string;
  readonly state: ServerRequestState;
}

interface Registration {
  id: string;
  method: string;
  registerOptions?: { identifier?: string } & Partial<DidChangeWatchedFilesRegistrationOptions>;
}

const pullRegistrations = new WeakMap<ServerRequestState, Map<string, string>>();

function lookup(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (section === undefined || section === "") return settings;
  let value: unknown = settings;
  for (const part of section.split(".")) {
    if (typeof value !== "object" || value === null) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}

/**
 * Answers every request a server sends us, so none of them waits on a reply that never comes:
 * configuration from the settings tree, capability registration (pull diagnostics and file
 * watchers are remembered), progress creation, folders; server-initiated edits are declined (only
 * lsp_rename writes, all or nothing).
 */
export function answerServerRequest(method: string, params: unknown, context: Context): unknown {
  switch (method) {
    case "workspace/configuration": {
      const items = (params as { items?: { section?: string }[] }).items ?? [];
      return items.map((item) => lookup(context.settings, item.section));
    }
    case "client/registerCapability": {
      const registrations = (params as { registrations?: Registration[] }).registrations ?? [];
      const byId = pullRegistrations.get(context.state) ?? new Map<string, string>();
      pullRegistrations.set(context.state, byId);
      for (const registration of registrations) {
        if (registration.method === "workspace/didChangeWatchedFiles") {
          context.state.fileWatchers.set(registration.id, watcherRules(registration.registerOptions));
          continue;
        }
        if (registration.method !== "textDocument/diagnostic") continue;
        const identifier = registration.registerOptions?.identifier ?? "";
        byId.set(registration.id, identifier);
        context.state.pullIdentifiers.add(identifier);
      }
      return null;
    }
    case "client/unregisterCapability": {
      const removals = (params as { unregisterations?: Registration[] }).unregisterations ?? [];
      const byId = pullRegistrations.get(context.state);
      for (const removal of removals) {
        context.state.fileWatchers.delete(removal.id);
        const identifier = byId?.get(removal.id);
        if (identifier === undefined) continue;
        byId?.delete(removal.id);
        if (![...(byId?.values() ?? [])].includes(identifier))
          context.state.pullIdentifiers.delete(identifier);
      }
      return null;
    }
    case "workspace/workspaceFolders":
      return [{ uri: pathToFileURL(context.root).href, name: context.root.split("/").pop() ?? "root" }];
    case "workspace/applyEdit":
      return { applied: false, failureReason: "this client applies edits only through lsp_rename" };
    default:
      // window/workDoneProgress/create, window/showMessageRequest, */refresh and anything else.
      return null;
  }
}
