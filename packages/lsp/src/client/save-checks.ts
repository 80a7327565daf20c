/**
 * Follows a server's checker runs after saves (`spec.checkOnSave`: rust-analyzer's flycheck,
 * `cargo check` on every didSave): which saves a finished run covers. The run is known only from
 * its `$/progress` items (token `rust-analyzer/flycheck/<n>`: begin, reports, end — also on
 * cancellation, when a newer save restarts it after a short debounce); its diagnostics come only
 * by publish, at the end of the server's turn, while a pull answers the server's own alone.
 *
 * A run that began after save N covers saves 1…N once every run has ended and none began for
 * {@link quietMs} after: a run cancelled for a save that crossed its begin on the wire ends, then
 * begins again within the server's debounce, and must not count for that save. A save after
 * which no run began within `startMs` is not covered (checkOnSave off, the command failed to
 * start, the workspace still loading: none of them sends progress).
 */
export class SaveChecks {
  private readonly tokenPrefix: string;
  private readonly startMs: number;
  private readonly now: () => number;
  /** didSave notifications sent so far. */
  private saves = 0;
  /** When the latest save was sent. */
  private lastSaveAt: number | undefined;
  /** Runs in progress: token → the number of saves sent before it began. */
  private readonly running = new Map<string | number, number>();
  /** The most saves a run that ended while others still ran had begun after. */
  private endedBegan = -1;
  /** The highest save finished runs cover (-1: no run has finished). */
  private covered = -1;
  /** When the last run ended. */
  private lastEndAt = -Infinity;

  constructor(options: { tokenPrefix: string; startMs: number; now?: () => number }) {
    this.tokenPrefix = options.tokenPrefix;
    this.startMs = options.startMs;
    this.now = options.now ?? Date.now;
  }

  /** A didSave is being sent; returns its index (the first is 1). */
  saved(): number {
    this.saves += 1;
    this.lastSaveAt = this.now();
    return this.saves;
  }

  /** Records a `$/progress` notification; true when it was about a checker run. */
  onProgress(token: string | number, kind: string | undefined): boolean {
    if (!String(token).startsWith(this.tokenPrefix)) return false;
    if (kind === "begin") {
      this.running.set(token, this.saves);
    } else if (kind === "end") {
      const began = this.running.get(token);
      this.running.delete(token);
      if (began !== undefined) this.endedBegan = Math.max(this.endedBegan, began);
      if (this.running.size === 0) {
        this.covered = Math.max(this.covered, this.endedBegan);
        this.endedBegan = -1;
        this.lastEndAt = this.now();
      }
    }
    return true;
  }

  /**
   * Where the check of save `index` stands (0: the file was never saved through us, covered by
   * any finished run): `checked` once a run that began after it has ended, none is running, none
   * began for {@link quietMs} since, and no later save may still start one (its run rewrites
   * every file's diagnostics); `not-started` when no run began within `startMs` of the latest
   * save and none covers `index`; else `pending`.
   */
  state(index: number): "checked" | "pending" | "not-started" {
    if (this.running.size > 0 || this.waitLeft() > 0) return "pending";
    return this.covered >= index ? "checked" : "not-started";
  }

  /**
   * Milliseconds until {@link state} can change without progress arriving: the quiet after the
   * last run's end, or the start bound of a save no run has begun after (0: none).
   */
  waitLeft(): number {
    const now = this.now();
    const quiet = this.lastEndAt + quietMs - now;
    const latest = this.lastSaveAt;
    const start = latest !== undefined && this.saves > this.covered ? latest + this.startMs - now : 0;
    return Math.max(0, quiet, start);
  }
}

/** How long no run may begin after the last one ended before its results are read. */
export const quietMs = 300;
