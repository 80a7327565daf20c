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
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onExpire();
    }, this.ms);
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
