/** The bound of diagnostics-on-write ran out (not an error of the server). */
export class BoundReached extends Error {}

/** `work`, or a {@link BoundReached} after `ms` naming the wrapper's bound `boundMs`. */
export async function withBound<T>(work: Promise<T>, ms: number, boundMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BoundReached(`the server did not answer within the ${boundMs} ms bound`)),
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s value, or `{}` once `signal` aborts (`work` goes on, unawaited). */
export async function untilAborted<T extends object>(
  work: Promise<T>,
  signal: AbortSignal,
): Promise<Partial<T>> {
  if (signal.aborted) return {};
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<Partial<T>>((resolve) => {
    onAbort = () => resolve({});
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** A signal that aborts with its parent or after a time (see {@link linkedSignal}). */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts it (what still listens stops) and lets go of its timer and its parent. */
  end(): void;
}

/**
 * A signal that aborts when `parent` does, or after `ms` when given. Held by its timer and by
 * its parent's listener: `AbortSignal.timeout` is held weakly and, combined by `AbortSignal.any`
 * and only listened to, is collected with its listeners before it fires.
 */
export function linkedSignal(parent: AbortSignal, ms?: number): LinkedSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (parent.aborted) abort();
  else parent.addEventListener("abort", abort, { once: true });
  const timer = ms === undefined ? undefined : setTimeout(abort, Math.max(0, ms));
  return {
    signal: controller.signal,
    end() {
      clearTimeout(timer);
      parent.removeEventListener("abort", abort);
      abort();
    },
  };
}
