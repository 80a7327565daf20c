import { countNoun, errorMessage } from "@tools/registry";
import { abortReason } from "../internal/abort.js";
import { formatDuration } from "../internal/format-duration.js";

/** Longest quiet spell while a request waits before a note says it is still waiting. */
const quietMs = 30_000;

/**
 * Watches the requests of one worker attempt through the SDK's `fetch`: says when the SDK retries
 * a request (which try, after what) and, while one waits long (every 30 s, or every half of the
 * request timeout when that is shorter), that it is still waiting and when it gives up. The notes
 * go to whatever {@link RequestWatch.begin} was last given (a worker's progress line).
 */
export class RequestWatch {
  readonly fetch: typeof fetch;
  #note: (message: string) => void = () => undefined;
  #tries = 0;
  #lastFailure: string | undefined;
  #signal: AbortSignal = new AbortController().signal;
  /** The wait a failure's retry-after asked for, done at the start of the retry's fetch. */
  #pendingWait: number | undefined;

  constructor(
    base: typeof fetch,
    private readonly limits: { timeoutMs: number; maxRetries: number },
  ) {
    this.fetch = async (input, init) => {
      let signal = init?.signal ?? undefined;
      const wait = this.#pendingWait;
      this.#pendingWait = undefined;
      if (wait !== undefined) {
        // The wait the server asked for before this retry, done here rather than by the SDK (whose
        // timer ignores a kill): a kill ends it at once, leaving no timer behind.
        await abortableDelay(wait, this.#signal);
        // The SDK's per-try timeout started before the wait: the try gets a whole one after it.
        signal = AbortSignal.any([this.#signal, AbortSignal.timeout(limits.timeoutMs)]);
      }
      this.#tries++;
      const tries = limits.maxRetries + 1;
      if (this.#tries > 1) {
        this.#note(
          `retrying the request (try ${this.#tries} of ${tries}) after ${this.#lastFailure ?? "a failure"}`,
        );
      }
      const started = Date.now();
      const every = Math.max(1, Math.min(quietMs, Math.floor(limits.timeoutMs / 2)));
      const timer = setInterval(() => {
        this.#note(
          `still waiting for the reply after ${formatDuration(Date.now() - started)} (try ${this.#tries} of ${tries}; each try gives up after ${formatDuration(limits.timeoutMs)})`,
        );
      }, every);
      try {
        const response = await base(input, signal === undefined ? init : { ...init, signal });
        this.#lastFailure = `status ${response.status}`;
        return response.ok || response.body === null ? response : this.#noticeRetry(response);
      } catch (error) {
        this.#lastFailure = signal?.aborted
          ? `no reply within ${formatDuration(limits.timeoutMs)}`
          : `a connection error (${errorMessage(error)})`;
        throw error;
      } finally {
        clearInterval(timer);
      }
    };
  }

  /**
   * `response` (a failure) as one whose body, when the SDK drops it to try the request again (it
   * reads the body of a failure it gives up on), notes that it waits to retry, and how long the
   * server asked it to: a wait a rate limit's retry-after may make long.
   */
  #noticeRetry(response: Response): Response {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const next = this.#tries + 1;
    const tries = this.limits.maxRetries + 1;
    const wait = retryAfter(response.headers);
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: async (reason) => {
        this.#note(
          `the server answered status ${response.status}; trying again${wait === undefined ? "" : ` in ${formatDuration(wait)}, as it asked`} (try ${next} of ${tries})`,
        );
        await reader.cancel(reason);
      },
    });
    // The SDK is told to retry at once; the wait is done in the next fetch, where a kill ends it.
    const headers = new Headers(response.headers);
    if (wait !== undefined) {
      this.#pendingWait = wait;
      headers.delete("retry-after");
      headers.set("retry-after-ms", "1");
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  }

  /**
   * Starts watching one request (with its retries); its notes go to `note`, and `signal` (the
   * request's own, given to the SDK) ends a wait before a retry.
   */
  begin(note: (message: string) => void, signal: AbortSignal): void {
    this.#note = note;
    this.#signal = signal;
    this.#pendingWait = undefined;
    this.#tries = 0;
    this.#lastFailure = undefined;
  }

  /** Tries of the request being watched so far (1 when it was not retried). */
  get tries(): number {
    return this.#tries;
  }

  /** How the limits read in a message: "120.0s per try, at most 3 tries". */
  describe(): string {
    const tries = this.limits.maxRetries + 1;
    return `${formatDuration(this.limits.timeoutMs)} per try, at most ${tries} ${countNoun(tries, "tries")}`;
  }
}

/**
 * The wait a failure's `retry-after-ms` or `retry-after` (seconds, or a date) asks for, in
 * milliseconds; undefined when it asks for none (no header, or none that is a wait ahead).
 */
function retryAfter(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  const value = headers.get("retry-after");
  const seconds = Number.parseFloat(value ?? "");
  const wait = Number.isFinite(ms)
    ? ms
    : Number.isFinite(seconds)
      ? seconds * 1000
      : value === null
        ? Number.NaN
        : Date.parse(value) - Date.now();
  return wait > 0 ? wait : undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (clearing its timer). */
function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
