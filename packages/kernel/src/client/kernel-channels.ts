import { Dealer, Subscriber } from "zeromq";
import { KernelError } from "../kernel-error.js";
import { endpoint, type ConnectionInfo } from "../protocol/connection.js";
import { SendQueue } from "../protocol/send-queue.js";
import { MessageCodec, type JupyterMessage } from "../protocol/wire.js";

/** Where {@link KernelChannels} hands the messages no {@link KernelChannels.request} is waiting for. */
export interface ChannelHandlers {
  /** A shell or control message with a parent that answers no pending request (execute_reply). */
  readonly onReply: (message: JupyterMessage) => void;
  readonly onStdin: (message: JupyterMessage) => void;
  readonly onIopub: (message: JupyterMessage) => void;
}

/**
 * The four sockets to one kernel and the routing of what arrives on them: shell, control and stdin
 * as DEALERs sharing one routing id (ipykernel sends input_request to the shell's identity), iopub
 * as SUB. Replies to {@link request} are matched by parent msg_id; the rest go to the handlers.
 */
export class KernelChannels {
  readonly codec: MessageCodec;
  readonly shell: Dealer;
  readonly control: Dealer;
  readonly stdin: Dealer;
  readonly iopub: Subscriber;
  private readonly replies = new Map<string, (message: JupyterMessage) => void>();
  private iopubSeen = false;
  private iopubWaiters: (() => void)[] = [];
  private stdinHandshake = false;
  /** One send in flight per socket (zeromq throws on a second): many bridged replies at once. */
  private readonly outbox = new Map<Dealer, SendQueue>();

  /** Creates and connects the sockets; nothing is read until {@link listen}. */
  constructor(info: ConnectionInfo) {
    this.codec = new MessageCodec(info.key);
    const routingId = `tools-${this.codec.session.slice(0, 8)}`;
    this.shell = new Dealer({ routingId, linger: 0 });
    this.control = new Dealer({ routingId, linger: 0 });
    this.stdin = new Dealer({ routingId, linger: 0 });
    this.iopub = new Subscriber({ linger: 0 });
    // A send on a closed socket (dispose or death) is dropped; the pending cell fails through the exit.
    for (const socket of [this.shell, this.control, this.stdin])
      this.outbox.set(socket, new SendQueue(socket));
    // The kernel's stdin is a ROUTER: an input_request sent before our DEALER's handshake is
    // dropped, and the bridged call would wait forever. Each socket retries its connection on
    // its own timer (100 ms and up), so stdin can link well after shell already answers.
    // The observer ends with the socket (closing it earlier rejects its pending read).
    this.stdin.events.on("handshake", () => {
      this.stdinHandshake = true;
    });
    this.shell.connect(endpoint(info, "shell"));
    this.control.connect(endpoint(info, "control"));
    this.stdin.connect(endpoint(info, "stdin"));
    this.iopub.connect(endpoint(info, "iopub"));
    this.iopub.subscribe();
  }

  /** True once any iopub message has arrived (the subscription is live). */
  get iopubLive(): boolean {
    return this.iopubSeen;
  }

  /** True once the stdin DEALER finished its handshake with the kernel (input requests reach us). */
  get stdinLinked(): boolean {
    return this.stdinHandshake;
  }

  /** Calls `waiter` when the first iopub message arrives; never if one already has. */
  onFirstIopub(waiter: () => void): void {
    this.iopubWaiters.push(waiter);
  }

  /** Starts reading every socket; each loop ends when its socket closes. */
  listen(handlers: ChannelHandlers): void {
    void this.readLoop(this.shell, (message) => this.onReply(message, handlers));
    void this.readLoop(this.control, (message) => this.onReply(message, handlers));
    void this.readLoop(this.stdin, (message) => handlers.onStdin(message));
    void this.readLoop(this.iopub, (message) => this.onIopub(message, handlers));
  }

  /** Sends a request and resolves with its reply; rejects with `KERNEL_TIMEOUT` after `timeoutMs`. */
  request(
    socket: Dealer,
    msgType: string,
    content: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<JupyterMessage> {
    const header = this.codec.header(msgType);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replies.delete(header.msg_id);
        reject(
          new KernelError({ code: "KERNEL_TIMEOUT", message: `no reply to ${msgType} in ${timeoutMs} ms` }),
        );
      }, timeoutMs);
      this.replies.set(header.msg_id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.send(socket, this.codec.encode({ header, content }));
    });
  }

  /** Sends encoded frames after those already queued on `socket`; a send on a closed socket is dropped. */
  send(socket: Dealer, frames: (Buffer | string)[]): void {
    this.outbox.get(socket)?.send(frames);
  }

  /** Closes every socket, which ends the read loops. */
  close(): void {
    for (const socket of [this.shell, this.control, this.stdin, this.iopub]) socket.close();
  }

  private async readLoop(
    socket: Dealer | Subscriber,
    handle: (message: JupyterMessage) => void,
  ): Promise<void> {
    try {
      for await (const frames of socket) {
        const message = this.codec.decode(frames);
        if (message) handle(message);
      }
    } catch {
      // Closed: the loop ends with the socket.
    }
  }

  private onReply(message: JupyterMessage, handlers: ChannelHandlers): void {
    const parentId = message.parentHeader.msg_id;
    if (parentId === undefined) return;
    const waiter = this.replies.get(parentId);
    if (waiter) {
      this.replies.delete(parentId);
      waiter(message);
      return;
    }
    handlers.onReply(message);
  }

  private onIopub(message: JupyterMessage, handlers: ChannelHandlers): void {
    if (!this.iopubSeen) {
      this.iopubSeen = true;
      for (const waiter of this.iopubWaiters.splice(0)) waiter();
    }
    handlers.onIopub(message);
  }
}
