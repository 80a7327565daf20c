import { ToolsError } from "@tools/registry";

/** The reason an aborted signal carries, as an Error (a plain DOMException otherwise). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new ToolsError({ code: "CANCELLED", message: typeof reason === "string" ? reason : "cancelled" });
}

/** Throws the signal's reason when it has aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}

/**
 * `promise`, or the signal's reason as soon as the signal aborts, whichever comes first; a later
 * rejection of `promise` is ignored. For a model SDK's request, whose own backoff before a retry
 * the signal does not cut short.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
