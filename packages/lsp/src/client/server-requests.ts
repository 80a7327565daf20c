import { pathToFileURL } from "node:url";

/** What the server told us through its own requests. */
export interface ServerRequestState {
  /** Identifiers of dynamically registered `textDocument/diagnostic` providers ("" for none). */
  readonly pullIdentifiers: Set<string>;
}

interface Context {
  readonly settings: Record<string, unknown>;
  readonly root: string;
  readonly state: ServerRequestState;
}

interface Registration {
  id: string;
  method: string;
  registerOptions?: { identifier?: string };
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
 * configuration from the settings tree, capability registration (pull diagnostics are
 * remembered), progress creation, folders; server-initiated edits are declined (only
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
