import { Worker } from "node:worker_threads";
import { stateKey, type Run } from "@tools/registry";
import { matchWorkerSource } from "./match-worker-source.js";

/** One block of text to search; see {@link matchWorkerSource}. */
export interface MatchJob {
  readonly pattern: string;
  readonly flags: string;
  readonly text: string;
  /** Most matches to return (all are counted). */
  readonly room: number;
  readonly maxMatchChars: number;
  readonly maxShownChars: number;
}

/** What the worker found in one block. */
export interface MatchReply {
  readonly lines: number;
  readonly count: number;
  readonly shown: readonly { readonly line: number; readonly text: string }[];
  readonly cut: number;
}

/**
 * A worker thread that runs a regular expression over text. A JavaScript regex cannot be
 * interrupted on the thread that runs it, and a catastrophic one (`(a+)+b` on 40 `a`s) runs for
 * years: here it runs beside the event loop, and {@link match} ends the thread at its deadline or
 * when the call is cancelled.
 */
export class MatchWorker {
  private readonly worker = new Worker(matchWorkerSource, { eval: true });
  private ended = false;

  constructor() {
    this.worker.unref();
    // A crash is reported to the job in flight; an idle worker that dies is simply not reused.
    this.worker.on("error", () => undefined);
    this.worker.once("exit", () => {
      this.ended = true;
    });
  }

  /** False once the thread was ended (deadline, cancel, crash): it takes no more jobs. */
  get usable(): boolean {
    return !this.ended;
  }

  /**
   * Runs one job. Resolves `"too slow"` (and ends the thread) when it takes more than `budgetMs`;
   * rejects with the signal's reason (and ends the thread) when `signal` aborts first.
   */
  match(job: MatchJob, budgetMs: number, signal: AbortSignal): Promise<MatchReply | "too slow"> {
    signal.throwIfAborted();
    if (this.ended) return Promise.reject(new Error("the match worker has ended"));
    const worker = this.worker;
    return new Promise<MatchReply | "too slow">((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        worker.unref();
      };
      const onMessage = (reply: MatchReply) => {
        settle();
        resolve(reply);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      const onExit = (code: number) => {
        settle();
        reject(new Error(`the match worker exited (code ${code})`));
      };
      const onAbort = () => {
        settle();
        this.end();
        reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
      };
      const timer = setTimeout(() => {
        settle();
        this.end();
        resolve("too slow");
      }, budgetMs);
      signal.addEventListener("abort", onAbort, { once: true });
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.ref();
      worker.postMessage(job);
    });
  }

  /** Ends the thread, even in the middle of a match. */
  end(): void {
    this.ended = true;
    void this.worker.terminate().catch(() => undefined);
  }
}

/** The run's idle worker, kept so the next grep does not pay ~100 ms to start a thread. */
const idleWorker = stateKey("grep match worker", () => ({
  worker: undefined as MatchWorker | undefined,
  disown: (): void => undefined,
}));

/**
 * Runs `work` with a match worker: the run's idle one, or a new one. Afterwards a usable worker
 * is kept for the next call (owned by the run, so ended with it) and any other is ended.
 */
export async function withMatchWorker<T>(run: Run, work: (worker: MatchWorker) => Promise<T>): Promise<T> {
  const slot = run.state(idleWorker);
  let worker = slot.worker;
  if (worker) {
    slot.worker = undefined;
    slot.disown();
  }
  if (!worker?.usable) worker = new MatchWorker();
  try {
    return await work(worker);
  } finally {
    if (worker.usable && !run.disposed && slot.worker === undefined) {
      slot.worker = worker;
      const kept = worker;
      slot.disown = run.own(() => kept.end(), "grep match worker");
    } else {
      worker.end();
    }
  }
}
