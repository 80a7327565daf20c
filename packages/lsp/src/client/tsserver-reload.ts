import { setMaxListeners } from "node:events";
import { realpathSync } from "node:fs";
import { sep } from "node:path";
import { tsserverRequestCommand } from "./tsserver-diagnostics.js";

/** What {@link tsserverReload} sends its requests through (`LanguageClient.request`). */
export type PassThroughRequest = <R>(
  method: string,
  params: unknown,
  timeoutMs: undefined,
  signal?: AbortSignal,
) => Promise<R>;

/** What {@link tsserverReload} did: how many files it answered for, and those a cancel cut short. */
export interface ReloadOutcome {
  readonly answered: number;
  /** The files with no answer when the caller's signal aborted: to send again on the next call. */
  readonly cutShort: readonly string[];
}

/**
 * Has tsserver read `files` (paths of files not open on it) from disk now, through
 * typescript-language-server's pass-through: tsserver's `reload` request, the file itself as the
 * text to read. tsserver otherwise reads such a file again only when its own watch tells it of
 * the change, which can come seconds later (after a `git checkout`). It handles requests in
 * order: one sent after these answers from the text read. A file it does not know is left
 * alone (but answered for: send only those it knows, see {@link tsserverProjectFiles}); a failure
 * (a timeout, an old server) leaves the file to tsserver's watch; those left unanswered because
 * `signal` aborted are returned as cut short.
 */
export async function tsserverReload(
  request: PassThroughRequest,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<ReloadOutcome> {
  // Each request listens to the signal it is given: the hundreds of files a checkout changes
  // listen to one of their own, tied once to the caller's (on which Node would warn of a leak).
  const own = new AbortController();
  setMaxListeners(0, own.signal);
  const abort = (): void => own.abort(signal?.reason);
  if (signal?.aborted) abort();
  else signal?.addEventListener("abort", abort, { once: true });
  try {
    const answers = await Promise.all(
      files.map((file) =>
        request<{ success?: boolean } | null>(
          "workspace/executeCommand",
          { command: tsserverRequestCommand, arguments: ["reload", { file, tmpfile: file }] },
          undefined,
          own.signal,
        ).catch(() => null),
      ),
    );
    const answered = answers.filter((answer) => answer?.success === true).length;
    const cutShort = own.signal.aborted ? files.filter((_, index) => answers[index] === null) : [];
    return { answered, cutShort };
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}

/**
 * Whether tsserver holds a file (see {@link tsserverProjectFiles}), with the names it listed
 * (tsserver's, `/` separators).
 */
export type HeldFiles = ((file: string) => boolean) & { readonly names: ReadonlySet<string> };

/** tsserver's name of `path` (`/` separators, Windows too). */
export const tsserverName = (path: string): string => (sep === "/" ? path : path.replaceAll(sep, "/"));

/** The files `listed` hold, as a test of a path (see {@link HeldFiles}). */
export function heldFiles(listed: ReadonlySet<string>): HeldFiles {
  const holds = (file: string): boolean => {
    if (listed.has(tsserverName(file))) return true;
    // A file reached through a symlink is known by its target's path.
    try {
      return listed.has(tsserverName(realpathSync.native(file)));
    } catch {
      return false;
    }
  };
  return Object.assign(holds, { names: listed });
}

/**
 * The files of the projects tsserver holds `openFiles` in (its `projectInfo` with the file list:
 * the project's sources, the lib and declaration files it reads, the sources of the projects its
 * tsconfig's `references` name), as a test of a path: the files a `reload` reads again; another
 * (a build's output beside the sources, a file outside the tsconfig's include) it does not know.
 * One request per project: an open file already listed asks nothing. Undefined when tsserver did
 * not say for one of them (an old server, a failure, a cancel), or when none is open (tsserver
 * keeps the projects of the files closed on it until another opens, and there is no file to ask
 * by): the caller then cannot tell which files it knows.
 */
export async function tsserverProjectFiles(
  request: PassThroughRequest,
  openFiles: readonly string[],
  signal?: AbortSignal,
): Promise<HeldFiles | undefined> {
  if (openFiles.length === 0) return undefined;
  const known = new Set<string>();
  for (const file of openFiles) {
    if (known.has(tsserverName(file))) continue;
    const answer = await request<{ success?: boolean; body?: { fileNames?: unknown } } | null>(
      "workspace/executeCommand",
      { command: tsserverRequestCommand, arguments: ["projectInfo", { file, needFileNameList: true }] },
      undefined,
      signal,
    ).catch(() => null);
    const names = answer?.success === true ? answer.body?.fileNames : undefined;
    if (!Array.isArray(names)) return undefined;
    for (const name of names) if (typeof name === "string") known.add(name);
    known.add(tsserverName(file));
  }
  return heldFiles(known);
}
