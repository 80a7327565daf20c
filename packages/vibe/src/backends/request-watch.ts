import { countNoun, errorMessage } from "@tools/registry";
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

  constructor(
    base: typeof fetch,
    private readonly limits: { timeoutMs: number; maxRetries: number },
  ) {
    this.fetch = async (input, init) => {
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
        const response = await base(input, init);
        this.#lastFailure = `status ${response.status}`;
        return response.ok || response.body === null ? response : this.#noticeRetry(response);
      } catch (error) {
        this.#lastFailure = init?.signal?.aborted
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
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Starts watching one request (with its retries); its notes go to `note`. */
  begin(note: (message: string) => void): void {
    this.#note = note;
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
