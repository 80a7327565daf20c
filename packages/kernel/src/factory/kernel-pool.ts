import { stateKey, type Run } from "@tools/registry";
import type { KernelClient, KernelLanguage } from "../client/kernel-client.js";
import type { KernelFactory } from "./kernel-factory.js";

/** A kernel handed to a cell, and what the agent should be told about it. */
export interface PooledKernel {
  readonly kernel: KernelClient;
  /** Set when an earlier kernel died and this one is fresh: its state is lost. */
  readonly note?: string;
}

/**
 * One kernel per (run, language), plus an optional warm spare. Every kernel is owned by the run,
 * so `run.dispose()` kills its process group and removes its socket directory.
 */
export class KernelPool {
  private readonly current = new Map<KernelLanguage, Promise<KernelClient>>();
  private readonly spares = new Map<KernelLanguage, Promise<KernelClient>>();

  constructor(
    private readonly run: Run,
    private readonly factory: KernelFactory,
  ) {}

  /** The run's kernel for `language`; with `reset`, a clean one (the spare, when warm). */
  async get(language: KernelLanguage, options: { reset?: boolean } = {}): Promise<PooledKernel> {
    let note: string | undefined;
    const existing = this.current.get(language);
    if (existing && options.reset) {
      this.discard(language);
    } else if (existing) {
      const kernel = await existing.catch(() => undefined);
      if (kernel && kernel.exited === undefined) return { kernel };
      if (kernel) {
        note = `(the previous ${language} kernel ${kernel.exited}; this is a fresh kernel — variables and imports from earlier cells are gone)`;
        // Dead on its own (a crash, killed): what its cells started (a child in its process
        // group, a daemon carrying its mark) ends with it now, not when the run ends.
        void kernel.dispose();
      }
      this.current.delete(language);
    }
    const spare = this.spares.get(language);
    this.spares.delete(language);
    let starting = spare ?? this.start(language);
    if (spare) {
      const ready = await spare.catch(() => undefined);
      if (!ready || ready.exited !== undefined) {
        void ready?.dispose();
        starting = this.start(language);
      }
    }
    this.current.set(language, starting);
    try {
      const kernel = await starting;
      return note === undefined ? { kernel } : { kernel, note };
    } catch (error) {
      if (this.current.get(language) === starting) this.current.delete(language);
      throw error;
    }
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
    void existing?.then(
      (kernel) => kernel.dispose(),
      () => undefined,
    );
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
