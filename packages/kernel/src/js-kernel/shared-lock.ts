/**
 * A spin lock in one slot of an Int32Array over a SharedArrayBuffer, shared by threads: 0 when
 * free, else the holder's own (non-zero) value.
 *
 * A script run with vm's breakOnSigint (or a timeout) may be ended by SIGINT anywhere, inside
 * {@link SharedLock.run} too, and V8 runs no `finally` of a terminated script: the lock stays held.
 * The thread that ran the script releases it with {@link SharedLock.releaseAbandoned} once the
 * script has returned; held on, every thread spun on it for good.
 */
export class SharedLock {
  constructor(
    private readonly state: Int32Array,
    private readonly at: number,
    /** This thread's value while it holds the lock (another thread's differs). */
    private readonly holder: number,
  ) {}

  /** Runs `change` under the lock, spinning until it is free. */
  run<T>(change: () => T): T {
    while (Atomics.compareExchange(this.state, this.at, 0, this.holder) !== 0);
    try {
      return change();
    } finally {
      Atomics.store(this.state, this.at, 0);
    }
  }

  /** Releases the lock should this thread still hold it (a script ended inside {@link run}). */
  releaseAbandoned(): void {
    Atomics.compareExchange(this.state, this.at, this.holder, 0);
  }
}
