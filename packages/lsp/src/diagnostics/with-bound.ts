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
