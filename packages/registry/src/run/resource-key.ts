/**
 * A typed key for a resource wired into a run (an LSP supervisor, a kernel factory, …). Each
 * package exports the key of the resource its tools need; a tool is registered only when the
 * run has it.
 */
export interface ResourceKey<T> {
  readonly id: symbol;
  /** Human name used in messages: "no LSP supervisor is wired". */
  readonly name: string;
  /** Phantom field carrying the type; never set. */
  readonly __type?: T;
}

/** Creates a resource key. `name` reads well after "no … is wired for this run". */
export function resourceKey<T>(name: string): ResourceKey<T> {
  return { id: Symbol(name), name };
}

/**
 * A typed slot of per-run state (a diagnostics ledger, the staged edits, remembered approvals),
 * created on first use by `init` and dropped with the run.
 */
export interface StateKey<T> {
  readonly id: symbol;
  readonly name: string;
  readonly init: () => T;
}

/** Creates a per-run state key with its initial value factory. */
export function stateKey<T>(name: string, init: () => T): StateKey<T> {
  return { id: Symbol(name), name, init };
}
