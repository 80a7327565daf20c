/**
 * `work`'s outcome, or a rejection with the signal's reason as soon as `signal` aborts. `work`
 * itself goes on (a kernel still starting serves the next call; a tool ends what it started on
 * the same signal), and a failure of it after the abort is no unhandled rejection. For a tool
 * that answers a cancel at once: the registry does not race `execute` against the call's signal,
 * since a serial tool's lane must stay held while its work runs, unless the tool says otherwise.
 */
export function rejectOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
