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
  /** When set, `events` emitting "stop" (the run's end, a reload) fails the request with it. */
  readonly stoppedError?: () => Error;
  /** The server's command, for messages. */
  readonly command: string;
  /**
   * False once the connection closed: a cancellation is then not sent (vscode-jsonrpc would log
   * its "Connection is closed" error to stderr). Always open when not given.
   */
  readonly open?: () => boolean;
}

/**
 * Sends a request and races it against its timeout (which cancels it and throws
 * `LSP_TIMEOUT`), the server's crash or stop and the caller's abort (`CANCELLED`); an error answer
 * becomes `LSP_REQUEST_FAILED`. Whichever comes first settles it and removes the others.
 */
export function boundedRequest<R>(
  connection: MessageConnection,
  method: string,
  params: unknown,
  bounds: RequestBounds,
): Promise<R> {
  const { timeoutMs, signal, events } = bounds;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  // One promise settled by whichever comes first (no race of four promises: this runs on every
  // call, and each promise and listener is paid again per request).
  return new Promise<R>((resolve, reject) => {
    const source = new CancellationTokenSource();
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      events.off("crash", onCrash);
      if (bounds.stoppedError) events.off("stop", onStop);
      signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const fail = (error: Error, cancel: boolean): void => {
      if (!finish()) return;
      if (cancel && (bounds.open?.() ?? true)) source.cancel();
      source.dispose();
      reject(error);
    };
    const onAbort = (): void =>
      fail(new ToolsError({ code: "CANCELLED", message: `${method} was cancelled` }), true);
    const onCrash = (): void => fail(bounds.crashedError(), false);
    const onStop = (): void => fail(bounds.stoppedError!(), false);
    const timer = setTimeout(
      () =>
        fail(
          new LspError({
            code: "LSP_TIMEOUT",
            message: `${bounds.command} did not answer ${method} within ${timeoutMs} ms; try again, or use action "reload" to restart it`,
          }),
          true,
        ),
      timeoutMs,
    );
    events.on("crash", onCrash);
    if (bounds.stoppedError) events.on("stop", onStop);
    signal?.addEventListener("abort", onAbort, { once: true });
    let sent: Promise<R>;
    try {
      sent = connection.sendRequest<R>(method, params, source.token);
    } catch (error) {
      fail(error as Error, false); // a closed or disposed connection throws at once
      return;
    }
    sent.then(
      (answer) => {
        if (!finish()) return;
        source.dispose();
        resolve(answer);
      },
      (error: unknown) => {
        if (!finish()) return;
        source.dispose();
        reject(
          error instanceof ResponseError
            ? new LspError({
                code: "LSP_REQUEST_FAILED",
                message: `${bounds.command} answered ${method} with an error: ${error.message}`,
                cause: error,
              })
            : error,
        );
      },
    );
  });
}
