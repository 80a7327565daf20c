import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { stateKey, type Run } from "@tools/registry";

/** The tail of each file's queue of writers, per run. */
const fileQueues = stateKey("file write queues", () => new Map<string, Promise<void>>());

/**
 * Per run, the placeholder of the call that arrived last: it settles once that call has resolved
 * its keys and queued on them, so each call queues after every call that arrived before it.
 */
const arrivals = stateKey("file lock arrivals", () => ({ last: Promise.resolve() }));

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
 * `alias/c.txt` through a symlinked folder share one. Calls queue in the order they arrive: each
 * takes its place synchronously (a placeholder), resolves its real paths, and queues on them only
 * after every call that arrived before it has; each call waits only for calls queued before it,
 * so there is no deadlock.
 */
export async function withFileLocks<T>(
  run: Run,
  paths: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const queues = run.state(fileQueues);
  const order = run.state(arrivals);
  // The placeholder, taken before anything is awaited: arrival order.
  const previous = order.last;
  let queued: () => void = () => undefined;
  order.last = new Promise<void>((resolve) => {
    queued = resolve;
  });
  let release: () => void = () => undefined;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  let unique: string[];
  let before: Promise<void>[];
  try {
    const keys = await Promise.all(paths.map((path) => lockKey(path)));
    unique = [...new Set(keys)];
    await previous;
    before = unique.map((path) => queues.get(path) ?? Promise.resolve());
    for (const path of unique) queues.set(path, mine);
  } finally {
    queued();
  }
  await Promise.all(before);
  try {
    return await work();
  } finally {
    release();
    for (const path of unique) if (queues.get(path) === mine) queues.delete(path);
  }
}
