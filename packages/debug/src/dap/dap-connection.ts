import type { Readable, Writable } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { encodeFrame, FrameParser } from "./framing.js";

/** A request the adapter answered with `success: false`, or that never got an answer. */
export class DapRequestError extends Error {
  constructor(
    readonly command: string,
    message: string,
    readonly kind: "failed" | "timeout" | "closed",
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
   * {@link DapRequestError} when the adapter refuses it, after `timeoutMs`, or when the connection
   * closes first. The returned promise never rejects unhandled: callers that do not await at once
   * (launch during the handshake) still get the failure when they do.
   */
  request<R extends DebugProtocol.Response = DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = 10_000,
  ): Promise<R> {
    const promise = new Promise<R>((resolve, reject) => {
      if (this.closedReason !== undefined) {
        reject(new DapRequestError(command, `${command} was not sent: ${this.closedReason}`, "closed"));
        return;
      }
      const seq = this.seq++;
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(new DapRequestError(command, `${command} got no answer within ${timeoutMs} ms`, "timeout"));
      }, timeoutMs);
      this.pending.set(seq, {
        command,
        resolve: resolve as (response: DebugProtocol.Response) => void,
        reject,
        timer,
      });
      const message: DebugProtocol.Request = { seq, type: "request", command, arguments: args };
      this.write(message);
    });
    promise.catch(() => undefined);
    return promise;
  }

  /** Ends the connection: every pending request fails with `reason`. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [seq, pending] of this.pending) {
      clearTimeout(pending.timer);
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
