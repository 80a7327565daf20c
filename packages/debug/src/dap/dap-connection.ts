import type { Readable, Writable } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { encodeFrame, FrameParser } from "./framing.js";

/**
 * A request the adapter answered with `success: false`, that never got an answer, or that its
 * caller gave up (`cancelled`: its signal aborted; an answer that comes later is dropped).
 */
export class DapRequestError extends Error {
  constructor(
    readonly command: string,
    message: string,
    readonly kind: "failed" | "timeout" | "closed" | "cancelled",
  ) {
    super(message);
    this.name = "DapRequestError";
  }
}

/** A listener of adapter events. */
export type DapEventListener = (event: DebugProtocol.Event) => void;

interface Pending {
  readonly command: string;
  readonly resolve: (response: DebugProtocol.Response) => void;
  readonly reject: (error: DapRequestError) => void;
  readonly timer: NodeJS.Timeout;
  /** Stops listening to the request's signal (once it is answered or has failed). */
  readonly unlisten: () => void;
}

/** How a request may be given up (see {@link DapConnection.request}). */
export interface DapRequestOptions {
  /** Gives the request up when it aborts: not sent if not sent yet, else its answer is not waited for. */
  readonly signal?: AbortSignal;
  /**
   * Sends a DAP `cancel` for a request given up after it was sent, so the adapter can stop
   * working on it; only for an adapter that declared `supportsCancelRequest`.
   */
  readonly cancel?: boolean;
}

/**
 * A small DAP client over any byte stream pair (an adapter's stdio or a TCP socket): numbered
 * requests with a timeout each, an event pump that never drops events, and reverse requests
 * (`runInTerminal`, `startDebugging`) refused so the adapter never blocks waiting for us.
 */
export class DapConnection {
  private seq = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<DapEventListener>();
  private readonly parser = new FrameParser();
  private closedReason: string | undefined;

  constructor(
    input: Readable,
    private readonly output: Writable,
  ) {
    input.on("data", (chunk: Buffer) => {
      for (const message of this.parser.push(chunk)) this.dispatch(message as DebugProtocol.ProtocolMessage);
    });
    input.on("close", () => this.close("the adapter closed the connection"));
    input.on("error", (error) => this.close(`the adapter connection failed: ${error.message}`));
    output.on("error", (error) => this.close(`the adapter connection failed: ${error.message}`));
  }

  /** Why the connection is closed, or undefined while it is open. */
  get closed(): string | undefined {
    return this.closedReason;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  onEvent(listener: DapEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends a request and resolves with its successful response. Rejects with a
   * {@link DapRequestError} when the adapter refuses it, after `timeoutMs`, when the connection
   * closes first, or at once when `options.signal` aborts (`cancelled`: not sent if it had not
   * been, its answer dropped if it comes; with `options.cancel` the adapter is sent a `cancel`
   * for it). The returned promise never rejects unhandled: callers that do not await at once
   * (launch during the handshake) still get the failure when they do.
   */
  request<R extends DebugProtocol.Response = DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = 10_000,
    options: DapRequestOptions = {},
  ): Promise<R> {
    const { signal } = options;
    const promise = new Promise<R>((resolve, reject) => {
      if (this.closedReason !== undefined) {
        reject(new DapRequestError(command, `${command} was not sent: ${this.closedReason}`, "closed"));
        return;
      }
      if (signal?.aborted) {
        reject(new DapRequestError(command, `${command} was not sent: its caller gave it up`, "cancelled"));
        return;
      }
      const seq = this.seq++;
      const onAbort = (): void => {
        const pending = this.pending.get(seq);
        if (!pending) return;
        this.pending.delete(seq);
        clearTimeout(pending.timer);
        if (options.cancel) this.notify("cancel", { requestId: seq });
        reject(
          new DapRequestError(
            command,
            `${command} was given up by its caller before its answer`,
            "cancelled",
          ),
        );
      };
      const timer = setTimeout(() => {
        this.pending.get(seq)?.unlisten();
        this.pending.delete(seq);
        reject(new DapRequestError(command, `${command} got no answer within ${timeoutMs} ms`, "timeout"));
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(seq, {
        command,
        resolve: resolve as (response: DebugProtocol.Response) => void,
        reject,
        timer,
        unlisten: () => signal?.removeEventListener("abort", onAbort),
      });
      const message: DebugProtocol.Request = { seq, type: "request", command, arguments: args };
      this.write(message);
    });
    promise.catch(() => undefined);
    return promise;
  }

  /** Sends a request whose answer nobody waits for (a `cancel`): a late answer is dropped as any unknown one. */
  private notify(command: string, args: unknown): void {
    if (this.closedReason !== undefined) return;
    const message: DebugProtocol.Request = { seq: this.seq++, type: "request", command, arguments: args };
    this.write(message);
  }

  /** Ends the connection: every pending request fails with `reason`. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [seq, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.unlisten();
      pending.reject(new DapRequestError(pending.command, `${pending.command} failed: ${reason}`, "closed"));
      this.pending.delete(seq);
    }
  }

  private write(message: DebugProtocol.ProtocolMessage): void {
    if (this.output.writable) this.output.write(encodeFrame(message));
  }

  private dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === "response") {
      const response = message as DebugProtocol.Response;
      const pending = this.pending.get(response.request_seq);
      if (!pending) return;
      this.pending.delete(response.request_seq);
      clearTimeout(pending.timer);
      pending.unlisten();
      if (response.success) pending.resolve(response);
      else {
        const detail = (response.body as { error?: DebugProtocol.Message } | undefined)?.error;
        const text = detail ? formatMessage(detail) : (response.message ?? "failed");
        pending.reject(new DapRequestError(pending.command, text, "failed"));
      }
    } else if (message.type === "event") {
      for (const listener of this.listeners) {
        try {
          listener(message as DebugProtocol.Event);
        } catch {
          // A failing listener must not stop the pump.
        }
      }
    } else if (message.type === "request") {
      const request = message as DebugProtocol.Request;
      const response: DebugProtocol.Response = {
        seq: this.seq++,
        type: "response",
        request_seq: request.seq,
        command: request.command,
        success: false,
        message: `the client does not support the reverse request '${request.command}'`,
      };
      this.write(response);
    }
  }
}

function formatMessage(message: DebugProtocol.Message): string {
  return message.format.replace(/\{(\w+)\}/g, (whole, name: string) => message.variables?.[name] ?? whole);
}
