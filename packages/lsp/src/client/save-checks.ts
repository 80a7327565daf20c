/**
 * Follows a server's checker runs after saves (`spec.checkOnSave`: rust-analyzer's flycheck,
 * `cargo check` on every didSave): which saves a finished run covers. The run is known only from
 * its `$/progress` items (token `rust-analyzer/flycheck/<n>`: begin, reports, end — also on
 * cancellation, as the run restarts for a newer save); its diagnostics come only by publish,
 * while a pull answers the server's own diagnostics alone.
 *
 * A run that began after save N covers saves 1…N once it ends and none is running. A save after
 * which no run began within `startMs` is not covered (checkOnSave off, or the command failed to
 * start: neither sends progress).
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
  /** The highest save a finished run covers. */
  private covered = 0;

  constructor(options: { tokenPrefix: string; startMs: number; now?: () => number }) {
    this.tokenPrefix = options.tokenPrefix;
    this.startMs = options.startMs;
    this.now = options.now ?? Date.now;
  }

  /** A didSave was sent; returns its index (the first is 1). */
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
      if (began !== undefined && this.running.size === 0) this.covered = Math.max(this.covered, began);
    }
    return true;
  }

  /**
   * Where the check of save `index` stands: `checked` once a run that began after it has ended,
   * none is running and no later save may still start one (a run restarted for a newer save
   * ends the cancelled one first, and rewrites every file's diagnostics); `not-started` when no
   * run began within `startMs` of the latest save and none covers `index`; else `pending`.
   * Save 0 (never saved through us) is covered by any finished run, or by none.
   */
  state(index: number): "checked" | "pending" | "not-started" {
    if (this.running.size > 0) return "pending";
    const latest = this.lastSaveAt;
    const laterMayStart =
      this.saves > this.covered && latest !== undefined && this.now() - latest < this.startMs;
    if (laterMayStart) return "pending";
    return this.covered >= index ? "checked" : "not-started";
  }

  /** Milliseconds until the latest save counts as not started, when no run begins (0: already). */
  startLeft(): number {
    const latest = this.lastSaveAt;
    return latest === undefined ? 0 : Math.max(0, latest + this.startMs - this.now());
  }
}
