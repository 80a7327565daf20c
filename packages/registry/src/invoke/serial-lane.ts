import { ToolsError } from "../errors/tools-error.js";
import { rejectOnAbort } from "./reject-on-abort.js";

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
    if (signal.aborted) throw laneCancelled(signal);
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
    try {
      await untilOrCancelled(previous, signal);
      return releaseOnce;
    } catch (error) {
      // Cancelled while waiting: pass our turn straight on once it comes.
      releaseOnce();
      throw error;
    }
  }
}

/**
 * Resolves when `turn` (a promise that never rejects) does; rejects with `CANCELLED` when `signal`
 * aborts first. The wait for a turn in a lane, here and for a caller's turn (see `reserveLane`).
 */
export function untilOrCancelled(turn: Promise<void>, signal: AbortSignal): Promise<void> {
  return rejectOnAbort(turn, signal).catch(() => {
    throw laneCancelled(signal);
  });
}

function laneCancelled(signal: AbortSignal): ToolsError {
  return new ToolsError({
    code: "CANCELLED",
    message: "the call was cancelled while it waited for the previous call of the same tool",
    cause: signal.reason,
  });
}
