import { ToolsError } from "../errors/tools-error.js";

/** A place taken in a {@link SerialLane}: wait for its turn, or give it up. */
export interface LanePlace {
  /**
   * Waits until every call before this one has released the lane; resolves with the release
   * function. Aborted while waiting, the place is given up (the turn passes straight on when it
   * comes) and it rejects with `CANCELLED`.
   */
  wait(signal: AbortSignal): Promise<() => void>;
  /** Gives the place up without running: the next call gets its turn as soon as it would have. */
  cancel(): void;
}

/**
 * A FIFO lock: calls of a tool that is not parallel-safe run one at a time, in arrival order. A
 * call takes its place when it arrives ({@link reserve}) and waits for its turn later (after its
 * approval card, say), so the order is that of arrival, not of the answers. A waiter whose signal
 * aborts leaves the queue, and the lane stays usable.
 */
export class SerialLane {
  private tail: Promise<void> = Promise.resolve();
  private held = 0;

  /** Number of calls running or waiting. */
  get size(): number {
    return this.held;
  }

  /** Takes the next place in the lane, at once. */
  reserve(): LanePlace {
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
    return {
      wait: async (signal) => {
        if (!signal.aborted && !released) {
          let onAbort: (() => void) | undefined;
          const aborted = new Promise<"aborted">((resolve) => {
            onAbort = () => resolve("aborted");
            signal.addEventListener("abort", onAbort, { once: true });
          });
          const outcome = await Promise.race([previous.then(() => "ready" as const), aborted]);
          if (onAbort) signal.removeEventListener("abort", onAbort);
          if (outcome === "ready" && !released) return releaseOnce;
        }
        // Cancelled while waiting: pass our turn straight on once it comes.
        releaseOnce();
        throw cancelled(signal);
      },
      cancel: releaseOnce,
    };
  }

  /** Takes a place and waits for its turn; resolves with the release function. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw cancelled(signal);
    return this.reserve().wait(signal);
  }
}

function cancelled(signal: AbortSignal): ToolsError {
  return new ToolsError({
    code: "CANCELLED",
    message: "the call was cancelled while it waited for the previous call of the same tool",
    cause: signal.reason,
  });
}
