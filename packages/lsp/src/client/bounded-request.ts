import type { EventEmitter } from "node:events";
import { ToolsError } from "@tools/registry";
import { CancellationTokenSource, ResponseError, type MessageConnection } from "vscode-jsonrpc/node";
import { LspError } from "../errors/lsp-error.js";

/** How one request is bounded. */
export interface RequestBounds {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Emits "crash" when the server dies; the request then fails with `crashedError()`. */
  readonly events: EventEmitter;
  readonly crashedError: () => Error;
  /** The server's command, for messages. */
  readonly command: string;
}

/**
 * Sends a request and races it against its timeout (which cancels it and throws
 * `LSP_TIMEOUT`), the server's crash and the caller's abort (`CANCELLED`); an error answer
 * becomes `LSP_REQUEST_FAILED`.
 */
export async function boundedRequest<R>(
  connection: MessageConnection,
  method: string,
  params: unknown,
  bounds: RequestBounds,
): Promise<R> {
  const { timeoutMs, signal, events } = bounds;
  signal?.throwIfAborted();
  const source = new CancellationTokenSource();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      source.cancel();
      reject(new ToolsError({ code: "CANCELLED", message: `${method} was cancelled` }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      source.cancel();
      reject(
        new LspError({
          code: "LSP_TIMEOUT",
          message: `${bounds.command} did not answer ${method} within ${timeoutMs} ms; try again, or use action "reload" to restart it`,
        }),
      );
    }, timeoutMs);
  });
  let onCrash: (() => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onCrash = () => reject(bounds.crashedError());
    events.once("crash", onCrash);
  });
  try {
    return await Promise.race([
      connection.sendRequest<R>(method, params, source.token),
      timeout,
      crashed,
      aborted,
    ]);
  } catch (error) {
    if (error instanceof ResponseError) {
      throw new LspError({
        code: "LSP_REQUEST_FAILED",
        message: `${bounds.command} answered ${method} with an error: ${error.message}`,
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    if (onCrash) events.off("crash", onCrash);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    source.dispose();
  }
}
