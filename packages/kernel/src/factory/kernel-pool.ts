import { stateKey, type Run } from "@tools/registry";
import type { KernelClient, KernelLanguage } from "../client/kernel-client.js";
import type { KernelFactory } from "./kernel-factory.js";

/** A kernel handed to a cell, and what the agent should be told about it. */
export interface PooledKernel {
  readonly kernel: KernelClient;
  /** Set when this kernel is fresh and the caller's state is lost: an earlier one died, or another call's reset. */
  readonly note?: string;
}

/** The pool's kernel for a language: being started (no cell has run in it yet), or started. */
interface Entry {
  readonly starting: Promise<KernelClient>;
  /** Set once the start succeeded (an entry whose start failed leaves the pool). */
  kernel?: KernelClient;
  /** Why it was started, for every caller handed it (the previous kernel died, or a reset). */
  readonly note?: string;
  readonly reset: boolean;
}

/**
 * One kernel per (run, language), plus an optional warm spare. Every kernel is owned by the run,
 * so `run.dispose()` kills its process group and removes its socket directory.
 *
 * `get` decides without awaiting anything: callers that come while a kernel is being started
 * (after a death, a reset or for the first cell) wait for that one, so one kernel is started
 * however many calls come at once, and none replaces another's.
 */
export class KernelPool {
  private readonly current = new Map<KernelLanguage, Entry>();
  private readonly spares = new Map<KernelLanguage, Promise<KernelClient>>();
  /**
   * Why the state was lost, when the start that was to replace a kernel (after a death or a
   * reset) failed: the next kernel's callers are told it, as that start's callers would have been.
   */
  private readonly lost = new Map<KernelLanguage, Pick<Entry, "note" | "reset">>();

  constructor(
    private readonly run: Run,
    private readonly factory: KernelFactory,
  ) {}

  /** The run's kernel for `language`; with `reset`, a clean one (the spare, when warm). */
  async get(language: KernelLanguage, options: { reset?: boolean } = {}): Promise<PooledKernel> {
    let entry = this.current.get(language);
    if (entry?.kernel !== undefined) {
      const kernel = entry.kernel;
      if (options.reset) {
        this.discard(language);
        entry = this.replace(language, undefined, true);
      } else if (kernel.exited === undefined) {
        return { kernel };
      } else {
        // Dead on its own (a crash, killed): what its cells started (a child in its process
        // group, a daemon carrying its mark) ends with it now, not when the run ends.
        void kernel.dispose();
        entry = this.replace(
          language,
          `(the previous ${language} kernel ${kernel.exited}; this is a fresh kernel — variables and imports from earlier cells are gone)`,
          false,
        );
      }
    } else if (entry === undefined) {
      // No kernel to lose (the first cell, or one killed and said so): a reset here leaves the
      // calls waiting with it nothing to be told.
      entry = this.replace(language, undefined, false);
    }
    // Still starting, nothing has run in it: clean, so a reset takes it too.
    const kernel = await entry.starting;
    const note =
      entry.note ??
      (entry.reset && !options.reset
        ? `(a reset asked for by another call started this clean ${language} kernel: variables and imports from earlier cells are gone)`
        : undefined);
    return note === undefined ? { kernel } : { kernel, note };
  }

  /** Starts a spare for `language` in the background, if the factory keeps spares and none exists. */
  warm(language: KernelLanguage): void {
    if (!this.factory.settings.warmSpare || this.spares.has(language) || this.run.disposed) return;
    const spare = this.start(language);
    spare.catch(() => {
      if (this.spares.get(language) === spare) this.spares.delete(language);
    });
    this.spares.set(language, spare);
  }

  /** Throws away the run's kernel for `language` (killed in the background). */
  discard(language: KernelLanguage): void {
    const existing = this.current.get(language);
    this.current.delete(language);
    void existing?.starting.then(
      (kernel) => kernel.dispose(),
      () => undefined,
    );
  }

  /** Puts a kernel being started in the pool at once: the spare when it is (or becomes) ready. */
  private replace(language: KernelLanguage, why: string | undefined, byReset: boolean): Entry {
    const spare = this.spares.get(language);
    this.spares.delete(language);
    const starting = spare === undefined ? this.start(language) : this.fromSpare(language, spare);
    const lost = this.lost.get(language);
    this.lost.delete(language);
    const note = why ?? lost?.note;
    const reset = byReset || (lost?.reset ?? false);
    const entry: Entry = { starting, reset, ...(note === undefined ? {} : { note }) };
    this.current.set(language, entry);
    starting.then(
      (kernel) => {
        entry.kernel = kernel;
      },
      () => {
        if (this.current.get(language) !== entry) return;
        this.current.delete(language);
        if (entry.note === undefined && !entry.reset) return;
        this.lost.set(language, {
          reset: entry.reset,
          ...(entry.note === undefined ? {} : { note: entry.note }),
        });
      },
    );
    return entry;
  }

  private async fromSpare(language: KernelLanguage, spare: Promise<KernelClient>): Promise<KernelClient> {
    const ready = await spare.catch(() => undefined);
    if (ready !== undefined && ready.exited === undefined) return ready;
    void ready?.dispose();
    return this.start(language);
  }

  private start(language: KernelLanguage): Promise<KernelClient> {
    const starting = this.factory.start(language, this.run.workingDirectory);
    return starting.then((kernel) => {
      this.run.own(() => kernel.dispose(), `${language} kernel ${kernel.pid ?? "?"}`);
      return kernel;
    });
  }
}

const pools = stateKey("kernel pools", () => new WeakMap<KernelFactory, KernelPool>());

/** The run's pool for this factory. */
export function kernelPool(run: Run, factory: KernelFactory): KernelPool {
  const byFactory = run.state(pools);
  let pool = byFactory.get(factory);
  if (!pool) {
    pool = new KernelPool(run, factory);
    byFactory.set(factory, pool);
  }
  return pool;
}
