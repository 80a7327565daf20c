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
        return response;
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
