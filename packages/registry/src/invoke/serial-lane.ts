import { ToolsError } from "../errors/tools-error.js";

/**
 * A FIFO lock: calls of a tool that is not parallel-safe run one at a time, in arrival order. A
 * waiter whose signal aborts leaves the queue, and the lane stays usable.
 */
export class SerialLane {
  private tail: Promise<void> = Promise.resolve();
  private held = 0;

  /** Number of calls running or waiting. */
  get size(): number {
    return this.held;
  }

  /** Waits for the lane; resolves with the release function. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw cancelled(signal);
    this.held++;
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    let released = false;
    const releaseOnce = (): void => {
      if (released) return;
      released = true;
      this.held--;
      release();
    };
    if (!signal.aborted) {
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<"aborted">((resolve) => {
        onAbort = () => resolve("aborted");
        signal.addEventListener("abort", onAbort, { once: true });
      });
      const outcome = await Promise.race([previous.then(() => "ready" as const), aborted]);
      if (onAbort) signal.removeEventListener("abort", onAbort);
      if (outcome === "ready") return releaseOnce;
    }
    // Cancelled while waiting: pass our turn straight on once it comes.
    releaseOnce();
    throw cancelled(signal);
  }
}

function cancelled(signal: AbortSignal): ToolsError {
  return new ToolsError({
    code: "CANCELLED",
    message: "the call was cancelled while it waited for the previous call of the same tool",
    cause: signal.reason,
  });
}
