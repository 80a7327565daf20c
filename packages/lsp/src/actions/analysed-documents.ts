import type { LanguageClient } from "../client/language-client.js";
import { someOf } from "../format/some-of.js";
import type { ServerSpec } from "../servers/server-table.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import type { BoundSteps } from "./call-bound.js";

/** What the wait needs of a client. */
export type AnalysedClient = Pick<LanguageClient, "isOpen" | "versionOf" | "freshDiagnostics"> & {
  readonly spec?: Pick<ServerSpec, "searchReady">;
};

/**
 * How long (ms) a server's analysis of an open document is watched for after a call stopped
 * waiting for it (at the supervisor's diagnostics bound): until then answers say it may be missing.
 */
export const analysisWatchMs = 60_000;

/** Bounds of {@link awaitAnalysis}, in milliseconds. */
export interface AnalysisBounds {
  /** How long one call waits, for all its documents together. */
  readonly waitMs: number;
  /** How long the server's analysis of one document version is watched for, across calls. */
  readonly watchMs: number;
  /** Ends the call's wait early (the watch goes on for later calls). */
  readonly signal?: AbortSignal | undefined;
}

/** The watch of one document version. */
interface Analysis {
  readonly version: number;
  /** True once the server's analysis is seen; false when the watch ended without it. */
  readonly done: Promise<boolean>;
  /** `done`'s value once it has settled. */
  settled?: boolean;
  /** A call already waited its whole bound for it: later calls do not wait again. */
  waitedOut: boolean;
}

/** Per client (a restarted server is a new client): uri → the watch of its current version. */
const analyses = new WeakMap<AnalysedClient, Map<string, Analysis>>();

/**
 * Waits until the server has analysed each of `uris` open on it at its current version; its
 * fresh diagnostics ({@link LanguageClient.freshDiagnostics}: pull, versioned publish or
 * progress, per server) are that signal. Answers that come from the server's index depend on
 * it: clangd without a background index indexes an open file once its AST is built, and
 * pyright's workspace search finds nothing in a file it has not analysed yet. A server that
 * computes searches on request (`spec.searchReady`, tsserver) is not waited for.
 *
 * One watch per document version and client, shared by every call: once it has seen the
 * analysis, calls return at once. A call waits at most `waitMs`; a watch one call already waited
 * out is not waited for again (repeated calls stay fast while it goes on, up to `watchMs`).
 * Never throws: returns the uris whose analysis has not been seen (still running, or the watch
 * ended without it).
 */
export async function awaitAnalysis(
  client: AnalysedClient,
  uris: readonly string[],
  bounds: AnalysisBounds,
): Promise<string[]> {
  // Such a server answers a search from the text sent, whatever its analysis (ServerSpec.searchReady).
  if (client.spec?.searchReady === "on-request") return [];
  let known = analyses.get(client);
  if (!known) {
    known = new Map();
    analyses.set(client, known);
  }
  // The watch of a closed document is over (its next open is a new version).
  for (const uri of known.keys()) if (!client.isOpen(uri)) known.delete(uri);
  const pending: { uri: string; analysis: Analysis }[] = [];
  const late: string[] = [];
  for (const uri of uris) {
    const version = client.versionOf(uri);
    if (version === undefined) continue;
    let analysis = known.get(uri);
    if (analysis?.version !== version) {
      analysis = watch(client, uri, version, Math.max(bounds.waitMs, bounds.watchMs));
      known.set(uri, analysis);
    }
    if (analysis.settled === undefined && !analysis.waitedOut) pending.push({ uri, analysis });
    else if (analysis.settled !== true) late.push(uri);
  }
  if (pending.length === 0) return late;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: () => void = () => undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, bounds.waitMs);
    onAbort = resolve;
    if (bounds.signal?.aborted) resolve();
    else bounds.signal?.addEventListener("abort", onAbort, { once: true });
  });
  await Promise.race([Promise.all(pending.map(({ analysis }) => analysis.done)), bound]);
  clearTimeout(timer);
  bounds.signal?.removeEventListener("abort", onAbort);
  for (const { uri, analysis } of pending) {
    // Cut short (the call's bound, a cancel), it was not waited out: the next call waits again.
    if (analysis.settled === undefined && !bounds.signal?.aborted) analysis.waitedOut = true;
    if (analysis.settled !== true) late.push(uri);
  }
  return uris.filter((uri) => late.includes(uri));
}

function watch(client: AnalysedClient, uri: string, version: number, watchMs: number): Analysis {
  const analysis: Analysis = {
    version,
    waitedOut: false,
    done: client
      .freshDiagnostics(uri, watchMs)
      .then(
        ({ fresh }) => fresh,
        () => false,
      )
      .then((fresh) => {
        analysis.settled = fresh;
        return fresh;
      }),
  };
  return analysis;
}

/**
 * {@link awaitAnalysis} of `uris` within the supervisor's diagnostics bound, as the step `bound`
 * waits on (when given); the caveat for the
 * answer when some were not analysed in time, else undefined.
 */
export async function awaitAnalysed(
  client: LanguageClient,
  uris: readonly string[],
  supervisor: Pick<LspSupervisor, "diagnosticsTimeoutMs" | "display" | "pathOf">,
  bound?: Pick<BoundSteps, "waiting" | "signal">,
): Promise<string | undefined> {
  const shown = (some: readonly string[]) =>
    someOf(
      some.map((uri) => supervisor.display(supervisor.pathOf(uri))),
      3,
    );
  if (uris.length > 0) bound?.waiting(`for ${client.spec.command} to analyse ${shown(uris)}`);
  const late = await awaitAnalysis(client, uris, {
    waitMs: supervisor.diagnosticsTimeoutMs,
    watchMs: analysisWatchMs,
    signal: bound?.signal,
  });
  if (late.length === 0) return undefined;
  return `${client.spec.command} had not finished analysing ${shown(late)}; the answer may be incomplete`;
}

/**
 * Of the documents just sent again (changed on disk), those whose analysis an answer from the
 * server's index waits for: all of them on a server that indexes only the files open on it
 * (clangd, whose index takes a file's new text only once it has analysed it), none elsewhere
 * (the others answer from the text they were sent).
 */
export function reindexing(
  client: Pick<LanguageClient, "spec">,
  resynced: readonly string[],
): readonly string[] {
  return client.spec.indexScope === "open-files" ? resynced : [];
}
