/** What the adapter said about one requested breakpoint. */
export interface BreakpointResult {
  /** The line asked for (1-based). */
  readonly requested: number;
  /** The line the adapter placed it on, when it said. */
  readonly line: number | undefined;
  readonly verified: boolean;
  readonly message: string | undefined;
  /** The adapter's id, for `breakpoint` events that change it later. */
  readonly id: number | undefined;
}

/** A change a `breakpoint` event brings. */
export interface BreakpointChange {
  readonly line?: number;
  readonly verified: boolean;
  readonly message?: string;
}

/** The breakpoints of one file: the lines asked for and, once sent, the adapter's answer. */
export interface FileBreakpoints {
  /** Ascending, each once. */
  readonly lines: readonly number[];
  results: BreakpointResult[] | undefined;
  /**
   * Why the session did not take them (a file of another language than its adapter's): they stay
   * pending for a session of their own language.
   */
  skipped?: string | undefined;
  /**
   * What the running session holds of them when sending them failed (cleared, or not known):
   * they were sent, so they are not pending, and no answer lists them. Sent again to the next session.
   */
  failed?: string | undefined;
  /**
   * The lines the running session may hold of the file when setting or clearing them failed,
   * said with `failed` (after a failed clear `lines` is empty). The next session gets none of
   * them: a cleared file is dropped, and the held lines are forgotten.
   */
  held?: readonly number[] | undefined;
}

/**
 * The breakpoints of a conversation, by absolute file path. They outlive sessions: set before a
 * launch, they are sent at the handshake, and again to the next session.
 */
export class BreakpointStore {
  readonly files = new Map<string, FileBreakpoints>();
  private readonly early = new Map<number, BreakpointChange>();

  /** Replaces a file's lines (kept in ascending order); an empty list clears the file. */
  set(file: string, lines: readonly number[]): void {
    if (lines.length === 0) this.files.delete(file);
    else this.files.set(file, { lines: [...new Set(lines)].sort((a, b) => a - b), results: undefined });
  }

  /** Marks a file's breakpoints as not for the running session, saying why; they stay pending. */
  skip(file: string, why: string): void {
    const entry = this.files.get(file);
    if (entry) entry.skipped = why;
  }

  /**
   * Marks a file's breakpoints as not set as asked in the running session, saying what it holds
   * and why; `held`: the lines it may hold, when more than those asked for.
   */
  fail(file: string, what: string, held?: readonly number[]): void {
    const entry = this.files.get(file);
    if (!entry) return;
    entry.failed = what;
    entry.held = held;
  }

  /** Keeps a file whose clearing failed in the running session, with the lines it may still hold, saying why. */
  failClear(file: string, held: readonly number[], what: string): void {
    this.files.set(file, { lines: [], results: undefined, failed: what, held });
  }

  /**
   * Applies a `breakpoint` event (reason changed/new) to the result with that id. An event that
   * overtakes the setBreakpoints answer it refers to is kept and applied when the answer is stored.
   */
  update(id: number, change: BreakpointChange): void {
    let applied = false;
    for (const entry of this.files.values()) {
      const index = entry.results?.findIndex((result) => result.id === id) ?? -1;
      if (index < 0 || !entry.results) continue;
      entry.results[index] = applyChange(entry.results[index]!, change);
      applied = true;
    }
    if (!applied) this.early.set(id, change);
  }

  /** Stores the adapter's answer for a file, with any event that came before it. */
  store(file: string, results: readonly BreakpointResult[]): BreakpointResult[] {
    const merged = results.map((result) => {
      const change = result.id === undefined ? undefined : this.early.get(result.id);
      if (change === undefined || result.id === undefined) return result;
      this.early.delete(result.id);
      return applyChange(result, change);
    });
    const entry = this.files.get(file);
    if (entry) entry.results = merged;
    return merged;
  }

  /** Forgets what the adapter said (a new session answers afresh). */
  resetResults(): void {
    this.early.clear();
    for (const [file, entry] of this.files) {
      // A clear that failed in the last session: this one gets none of those lines.
      if (entry.lines.length === 0) {
        this.files.delete(file);
        continue;
      }
      entry.results = undefined;
      entry.skipped = undefined;
      entry.failed = undefined;
      entry.held = undefined;
    }
  }
}

function applyChange(result: BreakpointResult, change: BreakpointChange): BreakpointResult {
  return { ...result, line: change.line ?? result.line, verified: change.verified, message: change.message };
}
