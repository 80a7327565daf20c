import { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import { countCrash, type ServerRecord } from "./server-record.js";
import type { ServerSetup } from "./server-setup.js";

/** What {@link startServer} needs from the supervisor. */
export interface StartOptions {
  /** The root as shown to the model. */
  readonly display: string;
  /** PATH given to the server (default: ours). */
  readonly path: string | undefined;
  readonly requestTimeoutMs: number;
  readonly progress: ((message: string) => void) | undefined;
  /** True once the run ended: a server that finishes starting then is ended at once. */
  readonly disposed: () => boolean;
}

/**
 * Spawns and initializes the server of `record` with its per-language setup (see
 * `serverSetup`; one that is not ok throws `LSP_NO_SERVER` with its reason). A failed start
 * counts as a crash (its reason and stderr tail kept on the record for `status`) and throws
 * `LSP_SERVER_FAILED` with both.
 */
export async function startServer(
  record: ServerRecord,
  binary: string,
  setup: ServerSetup,
  options: StartOptions,
): Promise<LanguageClient> {
  if (!setup.ok) throw new LspError({ code: "LSP_NO_SERVER", message: setup.reason });
  options.progress?.(`starting ${record.spec.command} for ${options.display}…`);
  const env = { ...process.env, ...(options.path !== undefined ? { PATH: options.path } : {}) };
  const client = new LanguageClient({
    spec: record.spec,
    root: record.root,
    binary,
    settings: setup.settings,
    initializationOptions: setup.initializationOptions,
    requestTimeoutMs: options.requestTimeoutMs,
    env,
    onProgress: options.progress,
  });
  record.client = client;
  record.lastPid = client.pid;
  try {
    await client.initialize();
  } catch (error) {
    const reason = client.failure ?? (error as Error).message;
    countCrash(record, client, reason);
    await client.dispose();
    // Read after the process is gone (its last stderr lines can trail its exit); kept on the
    // record, so status shows them after the client is dropped.
    const tail = client.stderrTail();
    record.lastStderr = tail;
    record.client = undefined;
    throw new LspError({
      code: "LSP_SERVER_FAILED",
      message: `${record.spec.command} for ${options.display} did not start: ${reason}${
        tail ? `\nits stderr ends with:\n${tail}` : ""
      }\nFix the cause, then call again or use action "reload".`,
      cause: error,
    });
  }
  if (options.disposed()) {
    await client.dispose();
    throw new LspError({
      code: "LSP_SERVER_FAILED",
      message: "the run ended while the server was starting",
    });
  }
  return client;
}
