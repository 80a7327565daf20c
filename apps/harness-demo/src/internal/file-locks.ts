import { stateKey, type Run } from "@tools/registry";

/** The tail of each file's queue of writers, per run. */
const fileQueues = stateKey("file write queues", () => new Map<string, Promise<void>>());

/**
 * Runs `work` while holding the run's lock on every one of `paths` (absolute), so two calls that
 * change the same file (edit and apply_patch issued in parallel) never read-modify-write over
 * each other. Waiters queue in arrival order; each call waits only for calls that arrived before
 * it, so there is no deadlock.
 */
export async function withFileLocks<T>(
  run: Run,
  paths: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const queues = run.state(fileQueues);
  const unique = [...new Set(paths)];
  let release: () => void = () => undefined;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const before = unique.map((path) => queues.get(path) ?? Promise.resolve());
  for (const path of unique) queues.set(path, mine);
  await Promise.all(before);
  try {
    return await work();
  } finally {
    release();
    for (const path of unique) if (queues.get(path) === mine) queues.delete(path);
  }
}
