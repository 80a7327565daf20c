import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { stateKey, type Run } from "@tools/registry";

/** The tail of each file's queue of writers, per run. */
const fileQueues = stateKey("file write queues", () => new Map<string, Promise<void>>());

/**
 * The file `path` names in the end: its real path, or, for a file not there yet, its name in the
 * real path of its folder. Two spellings of one file (a symlinked folder, `a/../b`) share a key.
 */
async function lockKey(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return realpath(dirname(path)).then(
      (folder) => join(folder, basename(path)),
      () => path,
    );
  }
}

/**
 * Runs `work` while holding the run's lock on every one of `paths` (absolute), so two calls that
 * change the same file (edit and apply_patch issued in parallel) never read-modify-write over
 * each other. A lock is on the file a path resolves to (its real path), so `real/c.txt` and
 * `alias/c.txt` through a symlinked folder share one. Waiters queue in the order their paths are
 * resolved; each call waits only for calls queued before it, so there is no deadlock.
 */
export async function withFileLocks<T>(
  run: Run,
  paths: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const queues = run.state(fileQueues);
  const keys = await Promise.all(paths.map((path) => lockKey(path)));
  const unique = [...new Set(keys)];
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
