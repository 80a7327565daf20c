/** Waits for `promise` to settle, at most `ms`; true when it settled in time. Never rejects. */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The longest wait a timer takes, in milliseconds: past it (or NaN), it fires at once. */
export const maxTimerMs = 2 ** 31 - 1;
