import { setMaxListeners } from "node:events";

/** A call's own abort signal, tied to the signals it depends on until the call ends. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** Unties it (at the end of the call): nothing stays hung on the run's or the caller's signal. */
  unlink(): void;
}

const nothing = (): void => {};

/** Signals whose max-listeners warning is already off. */
const unlimited = new WeakSet<AbortSignal>();

/**
 * A signal of the call's own that aborts when any of `sources` does (the run's, the caller's,
 * the parent call's), with that source's reason. Unlike `AbortSignal.any`, which on Node 20
 * costs ~10–25 µs a call and leaves a weak reference on a long-lived source (the run's signal)
 * for every call made, the tie is a listener removed by {@link CallSignal.unlink}. A tool's
 * listeners go on the call's signal, so none pile up on the run's, and any number of calls or
 * nested calls may listen at once without Node's max-listeners warning (it is turned off on each
 * signal a call ties to).
 */
export function callSignal(sources: readonly AbortSignal[]): CallSignal {
  const controller = new AbortController();
  for (const source of sources) {
    if (source.aborted) {
      controller.abort(source.reason);
      return { signal: controller.signal, unlink: nothing };
    }
  }
  const unlink = (): void => {
    for (const source of sources) source.removeEventListener("abort", onAbort);
  };
  function onAbort(this: AbortSignal): void {
    unlink();
    controller.abort(this.reason);
  }
  for (const source of sources) {
    // A signal others tie to (the run's, a call's with nested calls) may have any number of
    // listeners. Set once per signal: `setMaxListeners` costs ~4 µs, more than the rest here.
    if (!unlimited.has(source)) {
      setMaxListeners(0, source);
      unlimited.add(source);
    }
    source.addEventListener("abort", onAbort, { once: true });
  }
  return { signal: controller.signal, unlink };
}
