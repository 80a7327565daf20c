import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { MatchLimits, StopReason } from "../match/find-matches.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import type { RewriteCheck, RewriteToCheck } from "../rewrite/rewrite-check.js";
import type { FileScan, FileShare } from "./scan-file.js";

/** A file the main thread read and prefiltered, handed to a worker to parse and match. */
export interface PoolFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The file's size when read (the bytes may since have been handed to a worker). */
  readonly size: number;
  /** Only this share of the file (a large one, searched on every worker at once). */
  readonly share?: FileShare;
  /**
   * The file's place in the search's order (a job is given its files in this order, each share
   * of a file with the same place): a bounded job keeps the matches that come first in it.
   */
  readonly order: number;
}

/** Each worker's tree cache bounds. */
export interface WorkerCache {
  readonly maxCachedTrees: number;
  readonly maxCachedChars: number;
}

/** Main thread → worker: search files. */
export interface ScanRequest {
  readonly kind?: undefined;
  readonly id: number;
  readonly language: string;
  readonly pattern: CompiledPattern;
  readonly files: readonly PoolFile[];
  /** Bounds on each file's matching (`maxMatches` per file; the job stops at the total). */
  readonly limits: MatchLimits;
}

/** Worker → main thread. */
export type ScanResponse =
  | { readonly id: number; readonly scans: readonly FileScan[]; readonly error?: undefined }
  | { readonly id: number; readonly error: string };

/** Main thread → worker: check rewritten files for syntax errors (see `checkRewrite`). */
export interface CheckRequest {
  readonly kind: "check";
  readonly id: number;
  readonly language: string;
  readonly files: readonly RewriteToCheck[];
  readonly limits?: undefined;
}

/** Worker → main thread, for a `CheckRequest`. */
export type CheckResponse =
  | { readonly id: number; readonly checks: readonly RewriteCheck[]; readonly error?: undefined }
  | { readonly id: number; readonly error: string };

/** Any request, and any answer. */
export type WorkerRequest = ScanRequest | CheckRequest;
type WorkerResponse = ScanResponse | CheckResponse;

/** Files per message, and bytes per message, handed to a worker at a time. */
const batchFiles = 16;
const batchBytes = 512 * 1024;
/** Longest wait for a worker's answer to one batch (at most `batchBytes` of files). */
const requestTimeoutMs = 120_000;
/**
 * How long past the search's deadline a worker may take to answer: it checks the deadline
 * between candidates, but one parse (up to a 16 MiB file) cannot be cut short.
 */
const deadlineGraceMs = 30_000;

/** A worker did not answer in time: it is stuck, and the pool must be reset. */
export class ScanTimeoutError extends Error {}
/** Paths whose owning worker is remembered (so a cached tree is found again). */
const maxOwners = 50_000;

/** The compiled worker entry next to this module, or undefined when running from sources. */
export function scanWorkerUrl(): URL | undefined {
  const url = new URL("./scan-worker.js", import.meta.url);
  return url.protocol === "file:" && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** What a job found: the scans in no particular order, and why it stopped early, if it did. */
export interface ScanJobResult {
  readonly scans: FileScan[];
  readonly stopped?: StopReason;
  /** A worker did not answer within the deadline's grace: the pool must be reset. */
  readonly timedOut?: boolean;
}

/** A scan in progress on the pool. */
export interface ScanJob {
  add(file: PoolFile): void;
  close(): void;
  /**
   * Whether the job stopped early, or has all it needs of the files added so far (files added
   * since are not searched).
   */
  stopped(): boolean;
  readonly done: Promise<ScanJobResult>;
}

class PoolWorker {
  private readonly worker: Worker;
  /** Requests in flight, by id (concurrent searches share the pool). */
  private readonly pending = new Map<
    number,
    { resolve: (r: WorkerResponse) => void; reject: (e: Error) => void }
  >();
  private failure: Error | undefined;

  constructor(url: URL, cache: WorkerCache) {
    this.worker = new Worker(url, { workerData: cache });
    this.worker.unref();
    this.worker.on("message", (response: WorkerResponse) => {
      const pending = this.pending.get(response.id);
      this.pending.delete(response.id);
      if (this.pending.size === 0) this.worker.unref();
      pending?.resolve(response);
    });
    const fail = (error: Error): void => {
      this.failure ??= error;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const pending of waiting) pending.reject(error);
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`scan worker exited with code ${code}`)));
  }

  request(request: ScanRequest): Promise<ScanResponse>;
  request(request: CheckRequest): Promise<CheckResponse>;
  request(request: WorkerRequest): Promise<WorkerResponse> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const transfer: ArrayBuffer[] = [];
      for (const file of request.kind === "check" ? [] : request.files) {
        const { buffer, byteOffset, byteLength } = file.bytes;
        // A buffer already handed to a worker (detached) cannot go again: the message would be
        // lost without an error.
        if (buffer.byteLength === 0 && byteLength === 0 && file.size > 0) {
          reject(new Error(`the bytes of ${file.path} were already handed to a worker`));
          return;
        }
        if (
          buffer instanceof ArrayBuffer &&
          byteOffset === 0 &&
          byteLength === buffer.byteLength &&
          byteLength > 0
        )
          transfer.push(buffer);
      }
      // Bounded: a worker that never answers stops the scan (the pool is then reset); the wait
      // ends soon after the search's deadline, whatever is left of the request timeout.
      const deadline = request.limits?.deadline;
      const timeoutMs =
        deadline === undefined
          ? requestTimeoutMs
          : Math.min(requestTimeoutMs, Math.max(0, deadline - Date.now()) + deadlineGraceMs);
      const timer = setTimeout(() => {
        this.pending.delete(request.id);
        reject(new ScanTimeoutError(`a scan worker did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          done(value);
        };
      this.pending.set(request.id, { resolve: settle(resolve), reject: settle(reject) });
      // Only a worker with work in flight keeps the process alive.
      this.worker.ref();
      this.worker.postMessage(request, transfer);
    });
  }

  terminate(): void {
    this.failure ??= new Error("the scan pool was disposed");
    void this.worker.terminate();
  }
}

/**
 * A pool of worker threads that parse and match files, each with its own parser and tree cache.
 * A file goes back to the worker that parsed it last, so `ast_edit` after `ast_grep` finds its
 * tree cached; the other files go to whichever worker is free.
 */
export class ScanPool {
  private readonly workers: PoolWorker[];
  private readonly owners = new Map<string, number>();
  private nextId = 0;

  constructor(url: URL, size: number, cache: WorkerCache) {
    this.workers = Array.from({ length: size }, () => new PoolWorker(url, cache));
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Starts a scan that files are added to while they are read (`add`, then `close`); `done`
   * resolves with the results in no particular order, or rejects if a worker fails. Files are
   * added in their order (`PoolFile.order`). With `limits.maxMatches`, the job stops once the
   * files before the first one not yet searched hold that many matches (the first matches in
   * the files' order are then in, whichever worker was fast), and it does not hand out files past
   * the one where the searched files' matches reach the bound (they cannot be among the first).
   * It also stops when the deadline passed (`stopped`), and when a worker does not answer in time
   * (`timedOut`).
   */
  start(language: string, pattern: CompiledPattern, signal?: AbortSignal, limits: MatchLimits = {}): ScanJob {
    if (this.owners.size > maxOwners) this.owners.clear();
    const own: PoolFile[][] = this.workers.map(() => []);
    const shared: PoolFile[] = [];
    let closed = false;
    let wake: (() => void)[] = [];
    const notify = (): void => {
      const waiting = wake;
      wake = [];
      for (const resolve of waiting) resolve();
    };
    /**
     * The place of the file where the searched files' matches, in order, reach `maxMatches`: the
     * first matches are in the files up to it, whatever the files before it not yet searched hold.
     */
    let last: number | undefined;
    const take = (queue: PoolFile[]): PoolFile[] | undefined => {
      let bytes = 0;
      let count = 0;
      while (count < queue.length && count < batchFiles && bytes < batchBytes) {
        const file = queue[count];
        // Files come in order: this one and those after it are past the bound, not needed.
        if (!file || (last !== undefined && file.order > last)) {
          queue.length = count;
          break;
        }
        bytes += file.bytes.byteLength;
        count++;
      }
      return count === 0 ? undefined : queue.splice(0, count);
    };
    const results: FileScan[] = [];
    /** Each file added, in order, with its shares not yet searched and the matches found in it. */
    const files: { readonly order: number; waiting: number; matches: number }[] = [];
    const byPath = new Map<string, (typeof files)[number]>();
    /** Index in `files` of the first file not yet searched (every file before it is). */
    let cut = 0;
    let found = 0;
    let stopped: StopReason | undefined;
    let timedOut = false;
    const maxMatches = limits.maxMatches ?? Infinity;
    /** Notes a scan in. */
    const settle = (scan: FileScan): void => {
      const file = byPath.get(scan.path);
      if (file) {
        file.waiting--;
        file.matches += scan.matches.length;
      }
      found += scan.matches.length;
    };
    /** Whether the files before the cut hold the first `maxMatches` matches (sets `last`). */
    const enough = (): boolean => {
      while (cut < files.length && (files[cut]?.waiting ?? 0) <= 0) cut++;
      if (found < maxMatches) return false;
      // The first searched file where the searched files' matches add up to the bound. A batch is
      // cut where its matches reach the bound, so the files left out of it (waiting for good)
      // come after that file.
      let sum = 0;
      for (const file of files) {
        if (last !== undefined && file.order > last) break;
        if (file.waiting > 0) continue;
        sum += file.matches;
        if (sum >= maxMatches) {
          last = file.order;
          break;
        }
      }
      return last !== undefined && (cut >= files.length || (files[cut]?.order ?? Infinity) > last);
    };
    const drive = async (index: number, worker: PoolWorker): Promise<void> => {
      for (;;) {
        signal?.throwIfAborted();
        if (stopped) return;
        const batch = take(own[index] ?? []) ?? take(shared);
        if (!batch) {
          if (closed) return;
          await new Promise<void>((resolve) => wake.push(resolve));
          continue;
        }
        // Past the deadline only when there is work left to send: a last answer that comes in
        // just after it, with nothing more to do, is a search that finished.
        if (limits.deadline !== undefined && Date.now() >= limits.deadline) {
          stopped = "deadline";
          return;
        }
        for (const file of batch) if (!file.share) this.owners.set(file.path, index);
        let response: ScanResponse;
        try {
          response = await worker.request({ id: this.nextId++, language, pattern, files: batch, limits });
        } catch (error) {
          if (!(error instanceof ScanTimeoutError)) throw error;
          timedOut = true;
          stopped = "deadline";
          notify();
          return;
        }
        if (response.error !== undefined) throw new Error(response.error);
        for (const scan of response.scans) {
          results.push(scan);
          settle(scan);
          if (scan.stopped === "deadline") stopped = "deadline";
        }
        if (!stopped && enough()) stopped = "max-matches";
        // A stopped job wakes the waiting workers, which then return.
        if (stopped) notify();
      }
    };
    const done = Promise.all(this.workers.map((worker, index) => drive(index, worker))).then(
      () => ({ scans: results, ...(stopped ? { stopped } : {}), ...(timedOut ? { timedOut } : {}) }),
      (error: unknown) => {
        closed = true;
        notify();
        throw error;
      },
    );
    // The caller awaits `done` after closing; a failure before then must not go unhandled.
    done.catch(() => undefined);
    return {
      add: (file) => {
        if (!byPath.has(file.path)) {
          const entry = { order: file.order, waiting: file.share?.count ?? 1, matches: 0 };
          files.push(entry);
          byPath.set(file.path, entry);
        }
        if (last !== undefined && file.order > last) return;
        // Share k of a file always goes to worker k, so its cached trees are found again.
        const owner = file.share ? file.share.index % this.workers.length : this.owners.get(file.path);
        (owner === undefined ? shared : (own[owner] ?? shared)).push(file);
        notify();
      },
      close: () => {
        closed = true;
        notify();
      },
      stopped: () => stopped !== undefined || last !== undefined,
      done,
    };
  }

  /** Scans the files; results in no particular order. Rejects if a worker fails. */
  scan(
    language: string,
    pattern: CompiledPattern,
    files: readonly PoolFile[],
    signal?: AbortSignal,
    limits?: MatchLimits,
  ): Promise<ScanJobResult> {
    const job = this.start(language, pattern, signal, limits);
    for (const file of files) job.add(file);
    job.close();
    return job.done;
  }

  /**
   * Checks rewritten files for syntax errors their originals did not have (see `checkRewrite`),
   * each on the worker that searched it last (its cache may hold the original's tree), the others
   * spread by size. Rejects if a worker fails or does not answer in time.
   */
  async check(
    language: string,
    files: readonly RewriteToCheck[],
    signal?: AbortSignal,
  ): Promise<RewriteCheck[]> {
    const queues: RewriteToCheck[][] = this.workers.map(() => []);
    const load = this.workers.map(() => 0);
    const unowned: RewriteToCheck[] = [];
    for (const file of files) {
      const owner = this.owners.get(file.path);
      if (owner === undefined || !queues[owner]) unowned.push(file);
      else {
        queues[owner].push(file);
        load[owner] = (load[owner] ?? 0) + file.newText.length;
      }
    }
    for (const file of unowned) {
      const least = load.indexOf(Math.min(...load));
      queues[least]?.push(file);
      load[least] = (load[least] ?? 0) + file.newText.length;
    }
    const checks: RewriteCheck[] = [];
    await Promise.all(
      this.workers.map(async (worker, index) => {
        const queue = queues[index] ?? [];
        while (queue.length > 0) {
          signal?.throwIfAborted();
          let bytes = 0;
          let count = 0;
          while (count < queue.length && count < batchFiles && bytes < batchBytes)
            bytes += (queue[count++]?.newText.length ?? 0) * 2;
          const batch = queue.splice(0, count);
          const response = await worker.request({ kind: "check", id: this.nextId++, language, files: batch });
          if (response.error !== undefined) throw new Error(response.error);
          checks.push(...response.checks);
        }
      }),
    );
    return checks;
  }

  dispose(): void {
    for (const worker of this.workers) worker.terminate();
    this.owners.clear();
  }
}
