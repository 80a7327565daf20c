import { setMaxListeners } from "node:events";
import { tsserverRequestCommand } from "./tsserver-diagnostics.js";

/** What {@link tsserverReload} sends its requests through (`LanguageClient.request`). */
export type PassThroughRequest = <R>(
  method: string,
  params: unknown,
  timeoutMs: undefined,
  signal?: AbortSignal,
) => Promise<R>;

/**
 * Has tsserver read `files` (paths of files not open on it) from disk now, through
 * typescript-language-server's pass-through: tsserver's `reload` request, the file itself as the
 * text to read. tsserver otherwise reads such a file again only when its own watch tells it of
 * the change, which can come seconds later (after a `git checkout`). It handles requests in
 * order: one sent after these answers from the text read. A file it does not know is left
 * alone; a failure (a timeout, an old server) leaves the file to tsserver's watch. Returns how
 * many it answered for.
 */
export async function tsserverReload(
  request: PassThroughRequest,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<number> {
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
    return answers.filter((answer) => answer?.success === true).length;
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}
