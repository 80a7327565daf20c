import { LspError } from "../errors/lsp-error.js";

/** What a step of a bounded call records and runs under (see {@link CallBound}). */
export interface BoundSteps {
  /** Aborts at the bound (or with the caller's signal): a request still under way is cancelled. */
  readonly signal: AbortSignal;
  /** Starts the clock (once the call's server runs: its start has its own bound); idempotent. */
  start(): void;
  /**
   * Records what the call waits on from now ("for clangd to analyse main.c"), said if the bound
   * is reached before the next step.
   */
  waiting(step: string): void;
  /** `work`'s result, or `LSP_TIMEOUT` naming the step waited on when the bound is reached first. */
  run<T>(work: Promise<T>): Promise<T>;
  /** Steps of their own, running beside these, under the same bound and signal. */
  lane(): BoundSteps;
}

/**
 * The one bound of an `lsp` call that asks a server (navigation, hover, code actions, symbols):
 * the supervisor's request bound, shared by every wait of the call once its server runs — the
 * file sent, the server's analysis awaited, each request — so that a server that stopped
 * answering ends the call within that bound, not after one bound per step. A server's start is
 * not in it (its initialize has its own, longer bound), nor the first call after it, while the
 * server may still be loading its project (each step has its own bound then, as before): the
 * clock runs from {@link start}, called once the server has answered since its start. At the
 * bound the call fails with `LSP_TIMEOUT` saying which step it was waiting on, and `signal`
 * aborts what is still under way (requests are cancelled on the server). Steps running side by
 * side (one per server of a workspace search) each take a {@link lane}: one that reaches the
 * bound fails alone.
 */
export class CallBound implements BoundSteps {
  private readonly controller = new AbortController();
  private readonly expired = new Set<() => void>();
  private readonly main: Lane;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** Set once the bound is reached. */
  private over = false;
  private readonly onParentAbort: () => void;

  /**
   * `boundMs`: the bound in milliseconds; `call`: the call as said in the error ("lsp
   * references"); `parent`: the caller's signal (a cancel aborts {@link signal} too).
   */
  constructor(
    readonly boundMs: number,
    private readonly call: string,
    private readonly parent: AbortSignal,
  ) {
    this.main = new Lane(this);
    this.onParentAbort = () => this.controller.abort(parent.reason);
    if (parent.aborted) this.onParentAbort();
    else parent.addEventListener("abort", this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setTimeout(() => {
      this.over = true;
      this.controller.abort(this.error("its steps"));
      for (const expire of this.expired) expire();
    }, this.boundMs);
  }

  waiting(step: string): void {
    this.main.waiting(step);
  }

  run<T>(work: Promise<T>): Promise<T> {
    return this.main.run(work);
  }

  lane(): BoundSteps {
    return new Lane(this);
  }

  /** Lets go of the timer and of the caller's signal. */
  end(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener("abort", this.onParentAbort);
  }

  /** @internal Calls `expire` at the bound, until the returned function is called. */
  onExpiry(expire: () => void): () => void {
    if (this.over) {
      expire();
      return () => undefined;
    }
    this.expired.add(expire);
    return () => this.expired.delete(expire);
  }

  /** @internal The error of a call that reached its bound while waiting `step`. */
  error(step: string): LspError {
    return new LspError({
      code: "LSP_TIMEOUT",
      message: `${this.call} did not finish within its ${this.boundMs} ms bound: it was waiting ${step}. The server may be stopped or overloaded: action "status" shows its state, "reload" restarts it`,
      data: { boundMs: this.boundMs, step },
    });
  }
}

/** One line of steps of a {@link CallBound}. */
class Lane implements BoundSteps {
  private step = "for the server";

  constructor(private readonly bound: CallBound) {}

  get signal(): AbortSignal {
    return this.bound.signal;
  }

  start(): void {
    this.bound.start();
  }

  waiting(step: string): void {
    this.step = step;
  }

  lane(): BoundSteps {
    return this.bound.lane();
  }

  async run<T>(work: Promise<T>): Promise<T> {
    let stop: () => void = () => undefined;
    const expiry = new Promise<never>((_, reject) => {
      stop = this.bound.onExpiry(() => reject(this.bound.error(this.step)));
    });
    // Past the bound, what goes on is neither awaited nor reported.
    void work.catch(() => undefined);
    try {
      return await Promise.race([work, expiry]);
    } finally {
      stop();
    }
  }
}
