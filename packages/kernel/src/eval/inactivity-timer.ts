/**
 * Fires `onExpire` after `ms` without {@link touch}. While paused (a bridged call is in flight)
 * it never fires; each pause must be matched by a resume, which restarts the full budget.
 */
export class InactivityTimer {
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly onExpire: () => void,
  ) {
    this.touch();
  }

  /** Activity: the budget starts again. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || this.paused > 0) return;
    const timer = setTimeout(() => {
      // Node runs timers before reading I/O, so after this process was starved (a loaded machine)
      // the budget can run out with the cell's next message already waiting on a socket. One
      // turn of the loop reads it first; a touch or pause in that turn keeps the cell alive.
      setImmediate(() => {
        if (this.timer !== timer || this.stopped) return;
        this.stopped = true;
        this.onExpire();
      });
    }, this.ms);
    this.timer = timer;
  }

  pause(): void {
    this.paused++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.touch();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/**
 * Fires `onExpire` once the cell has run for `ms` in all, not counting the time it spends paused
 * (a bridged call in flight, an approval card open): the bound on a cell that keeps printing,
 * which {@link InactivityTimer} never stops. Pauses nest; each must be matched by a resume.
 * `now` is the clock in ms (tests pass their own).
 */
export class RunningTimeLimit {
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  private stopped = false;
  /** Running time used before the current stretch, and when that stretch began. */
  private used = 0;
  private since: number;

  constructor(
    private readonly ms: number,
    private readonly onExpire: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.since = now();
    this.arm();
  }

  pause(): void {
    if (this.paused++ > 0 || this.stopped) return;
    this.used += this.now() - this.since;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    if (this.paused === 0) return;
    if (--this.paused > 0 || this.stopped) return;
    this.since = this.now();
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    const left = Math.max(0, this.ms - this.used - (this.now() - this.since));
    this.timer = setTimeout(() => {
      if (this.stopped || this.paused > 0) return;
      // A timer can fire a little early: only running time spent counts.
      if (this.used + (this.now() - this.since) < this.ms) {
        this.arm();
        return;
      }
      this.stopped = true;
      this.onExpire();
    }, left);
  }
}

/** A budget as a person reads it: "5 minutes", "90 s", "0.4 s". */
export function describeBudget(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} minutes`;
  if (ms >= 10_000) return `${Math.round(ms / 1000)} s`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}
