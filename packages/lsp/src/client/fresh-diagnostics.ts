/**
 * A document's diagnostics by its server's freshness rule (pull, tsserver's own requests, or the
 * push rule), for `LanguageClient.freshDiagnostics` and `LanguageClient.currentDiagnostics`.
 */
import type { Diagnostic, ServerCapabilities } from "vscode-languageserver-protocol";
import type { ServerSpec } from "../servers/server-table.js";
import type { DocumentSync } from "./document-sync.js";
import { pullAvailable, pullDiagnostics } from "./pull-diagnostics.js";
import type { ServerRequestState } from "./server-requests.js";
import { tsserverPullAvailable, tsserverPullDiagnostics } from "./tsserver-diagnostics.js";

/** Diagnostics of one document version (see {@link freshDiagnosticsOf}). */
export interface FreshDiagnostics {
  readonly diagnostics: Diagnostic[];
  /** False when the wait hit its bound: the list may be stale. */
  readonly fresh: boolean;
  /** What the list lacks, when known (a checker run that did not finish): then fresh or not. */
  readonly incomplete?: string;
}

/** What the diagnostics of a client's documents are read from: its server, spec and documents. */
export interface DiagnosticsSource {
  readonly spec: ServerSpec;
  /** The server's capabilities, as its initialize answered. */
  capabilities(): ServerCapabilities;
  /** What the server registered (pull diagnostics among it). */
  readonly requestState: ServerRequestState;
  readonly documents: DocumentSync;
  /** Sends a request with a bound, positions converted (see `LanguageClient.request`). */
  request<R>(method: string, params: unknown, timeoutMs: number): Promise<R>;
  /** `value`, holding positions of the server's in the document `uri`, with the user's. */
  fromServer<T>(uri: string, value: T): T;
}

/**
 * Diagnostics for the document's current version, by the freshness rule for this server:
 * pull (`textDocument/diagnostic`) where the server offers it, or tsserver's own diagnostics
 * requests through typescript-language-server (`spec.pull`); otherwise, or when a pull fails,
 * the push rule of {@link DocumentSync.awaitPublish} — which a pull registration arriving
 * meanwhile interrupts, for a pull. All of it shares one deadline, `timeoutMs`
 * from the call: a pull that fails late leaves the push wait only what remains. When the
 * deadline passes first, `fresh` is false and the diagnostics are whatever arrived.
 *
 * `withCheck`, on a server that runs a checker after saves (`spec.checkOnSave`: cargo check
 * in rust-analyzer), also waits, within the same deadline, for the run after the document's
 * last save and adds its pushed diagnostics; when it had not finished or did not start,
 * `incomplete` says so (the pulled diagnostics stay fresh: they are the server's own).
 */
export async function freshDiagnosticsOf(
  source: DiagnosticsSource,
  uri: string,
  timeoutMs: number,
  options: { withCheck?: boolean } = {},
): Promise<FreshDiagnostics> {
  if (!source.documents.isOpen(uri)) throw new Error(`document ${uri} is not open`);
  const deadline = Date.now() + timeoutMs;
  const own = await ownDiagnostics(source, uri, deadline);
  const check = source.spec.checkOnSave;
  // Its publishes carry the checker's diagnostics alone while it serves pulls: after a failed
  // pull they are not the server's own answer.
  if (check && own.pullFailed) {
    return {
      diagnostics: own.diagnostics,
      fresh: false,
      incomplete: `the pull of ${source.spec.command}'s own diagnostics failed; only ${check.name}'s may be listed`,
    };
  }
  if (!options.withCheck || !check || !own.fresh) return own;
  const run = await source.documents.awaitCheck(uri, deadline);
  // In pull mode the publishes carry the checker's diagnostics alone; otherwise they are the
  // whole set, the server's own included.
  if (run.state === "checked") {
    return {
      diagnostics: own.pulled ? [...own.diagnostics, ...run.diagnostics] : run.diagnostics,
      fresh: true,
    };
  }
  const why = {
    pending: `${check.name} had not finished within ${timeoutMs} ms`,
    "not-started": `${check.name} did not start after the save (off, or the workspace still loading)`,
    stopped: `the server stopped, or the file was closed, before ${check.name} finished`,
  }[run.state];
  // Pulled, the server's own diagnostics are fresh and complete for what they cover; pushed,
  // they came with an earlier run's results.
  return own.pulled
    ? { diagnostics: own.diagnostics, fresh: true, incomplete: `${why}; its diagnostics are not included` }
    : {
        diagnostics: own.diagnostics,
        fresh: false,
        incomplete: `${why}; its diagnostics may be from an earlier run`,
      };
}

/**
 * The open document's diagnostics as the server had them before `before` (performance.now()),
 * nothing sent first: its publish for the document's current version when one came by then;
 * else pulled, where the server offers a pull; else the publish answering the version sent,
 * awaited. A server running a checker after saves adds the checker's last published ones to a
 * pull. Undefined when there is no answer within `timeoutMs`. What a file had before a write
 * is read so: tsserver reads a file that is not open from disk, and a pull after the write has
 * it already, while its publishes for other files come only after an edit sent to it.
 * `publishedOnly`: only that publish, nothing asked or awaited — for a write of a file not open
 * here, which the server may have read from disk already.
 */
export async function currentDiagnosticsOf(
  source: DiagnosticsSource,
  uri: string,
  timeoutMs: number,
  before: number,
  publishedOnly = false,
): Promise<Diagnostic[] | undefined> {
  if (!source.documents.isOpen(uri)) return undefined;
  if (publishedOnly) return source.documents.answeredBefore(uri, before);
  const request = <R>(method: string, params: unknown, bound: number): Promise<R> =>
    source.request<R>(method, params, bound);
  const pullMode = pullAvailable(source.capabilities(), source.requestState);
  if (source.spec.checkOnSave && pullMode) {
    const pulled = await pullDiagnostics(
      request,
      source.capabilities(),
      source.requestState,
      uri,
      timeoutMs,
    ).catch(() => undefined);
    // In pull mode its publishes carry the checker's diagnostics alone.
    return pulled ? [...pulled, ...(source.documents.lastDiagnostics(uri) ?? [])] : undefined;
  }
  const published = source.documents.answeredBefore(uri, before);
  if (published) return published;
  if (source.spec.pull === "tsserver" && tsserverPullAvailable(source.capabilities())) {
    return tsserverPullDiagnostics(request, uri, timeoutMs)
      .then((pulled) => source.fromServer(uri, pulled))
      .catch(() => undefined);
  }
  if (pullMode) {
    return pullDiagnostics(request, source.capabilities(), source.requestState, uri, timeoutMs).catch(
      () => undefined,
    );
  }
  const answer = await source.documents.awaitPublish(uri, Date.now() + timeoutMs);
  return answer.fresh ? answer.diagnostics : undefined;
}

/** The server's own diagnostics for the document's current version (see {@link freshDiagnosticsOf}). */
async function ownDiagnostics(
  source: DiagnosticsSource,
  uri: string,
  deadline: number,
): Promise<{ diagnostics: Diagnostic[]; fresh: boolean; pulled: boolean; pullFailed?: boolean }> {
  const remaining = (): number => deadline - Date.now();
  const request = <R>(method: string, params: unknown, bound: number): Promise<R> =>
    source.request<R>(method, params, bound);
  if (source.spec.pull === "tsserver" && tsserverPullAvailable(source.capabilities()) && remaining() > 0) {
    const pulled = await tsserverPullDiagnostics(request, uri, remaining())
      .then((answer) => source.fromServer(uri, answer))
      .catch(() => undefined);
    if (pulled) return { diagnostics: pulled, fresh: true, pulled: true };
  }
  let pullFailed = false;
  for (;;) {
    if (!pullFailed && pullAvailable(source.capabilities(), source.requestState) && remaining() > 0) {
      const pulled = await pullDiagnostics(
        request,
        source.capabilities(),
        source.requestState,
        uri,
        remaining(),
      ).catch(() => undefined);
      if (pulled) return { diagnostics: pulled, fresh: true, pulled: true };
      pullFailed = true;
    }
    // A server that registers pull diagnostics dynamically (pyright, just after initialize)
    // publishes nothing once it has: a registration during the wait ends it, and we pull.
    const awaitRegistration = !pullFailed && !pullAvailable(source.capabilities(), source.requestState);
    const pushed = await source.documents.awaitPublish(
      uri,
      deadline,
      awaitRegistration ? () => pullAvailable(source.capabilities(), source.requestState) : undefined,
    );
    if (!pushed.interrupted) {
      return { diagnostics: pushed.diagnostics, fresh: pushed.fresh, pulled: false, pullFailed };
    }
  }
}
