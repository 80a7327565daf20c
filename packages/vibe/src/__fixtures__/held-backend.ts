import type { WorkerBackend, WorkerTask } from "../backends/worker-backend.js";

/**
 * A backend defined in the test: each attempt waits until the test answers it (or it is
 * aborted), so the test decides when workers finish. It exercises the list, not a model.
 */
export class HeldBackend implements WorkerBackend {
  readonly description = "held in-process backend (test)";
  readonly gated = true;
  readonly attempts: { task: WorkerTask; answer: (text: string) => void; fail: (message: string) => void }[] =
    [];
  readonly aborted: string[] = [];
  private readonly listeners = new Set<() => void>();

  perform(task: WorkerTask): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      task.signal.addEventListener(
        "abort",
        () => {
          this.aborted.push(task.workerId);
          reject(task.signal.reason as Error);
        },
        { once: true },
      );
      this.attempts.push({ task, answer: resolve, fail: (message) => reject(new Error(message)) });
      for (const listener of this.listeners) listener();
    });
  }

  /** The attempt number `n` (0-based), once it has started (bounded wait). */
  attempt(n: number): Promise<(typeof this.attempts)[number]> {
    const found = this.attempts[n];
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`attempt ${n} never started`)), 10_000);
      const check = (): void => {
        const attempt = this.attempts[n];
        if (!attempt) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(attempt);
      };
      this.listeners.add(check);
    });
  }
}

