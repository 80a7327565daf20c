/** What a zeromq socket offers for sending: one multipart message per call. */
export interface SendingSocket {
  send(frames: (Buffer | string)[]): Promise<void>;
}

/**
 * Sends on one zeromq socket one message at a time, in call order. zeromq 6 allows a single send
 * in flight per socket: after 512 sends that complete at once it defers the next, and a send made
 * meanwhile throws EBUSY synchronously ("Socket is busy writing") — past any `.catch()` on the
 * promise it never returned. Each send here waits for the previous one to settle. Sends on a
 * PUB or ROUTER socket never wait for a peer (they drop at the high-water mark), and a pending
 * send on a closed socket rejects, so the chain always moves on.
 */
export class SendQueue {
  private tail: Promise<void> = Promise.resolve();

  /** `onError` gets each failed send's error (a closed socket); the queue goes on after it. */
  constructor(
    private readonly socket: SendingSocket,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Queues `frames`; never throws. */
  send(frames: (Buffer | string)[]): void {
    // Inside then(), a synchronous throw of send() becomes a rejection that onError sees.
    this.tail = this.tail.then(() => this.socket.send(frames)).catch(this.onError);
  }

  /** Resolves once every message queued so far has been sent or has failed. */
  drained(): Promise<void> {
    return this.tail;
  }
}
