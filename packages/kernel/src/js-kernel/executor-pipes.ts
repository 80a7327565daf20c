import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { CellEndMarks, MarkedStream } from "./marked-stream.js";

/** Characters of the executor's fd 2 kept for the kernel's own stderr, should the executor end. */
const stderrKept = 4000;

/**
 * The executor's fd 1 and 2 as the kernel reads them (pipes): what a cell writes there without
 * console or process.stdout (`fs.writeSync(1, …)`, a child process with stdio "inherit") goes to
 * `onText`; the cell-end marks (of `markKey`, see MarkedStream) go to {@link marks}, which ends a
 * cell once the pipes marked after it are read up to its mark.
 */
export class ExecutorPipes {
  /** Ends cells once the pipes are read up to the marks the executor wrote after them. */
  readonly marks = new CellEndMarks();
  private tail = "";

  constructor(
    private readonly executor: ChildProcess,
    markKey: string,
    onText: (name: "stdout" | "stderr", text: string) => void,
  ) {
    for (const name of ["stdout", "stderr"] as const) {
      const reader = new MarkedStream(
        markKey,
        (text) => {
          if (name === "stderr") this.tail = (this.tail + text).slice(-stderrKept);
          onText(name, text);
        },
        (id) => this.marks.seen(name, id),
      );
      const pipe = executor[name];
      pipe?.on("data", (chunk: Buffer) => reader.push(chunk));
      pipe?.on("end", () => {
        reader.end();
        this.marks.ended(name);
      });
    }
  }

  /** The last characters written to fd 2 (a fatal error's message, when the executor died of one). */
  get stderrTail(): string {
    return this.tail;
  }

  /**
   * Resolves once both pipes are closed (all written before the executor ended has been read), or
   * after `boundMs`: a process a cell started may hold them open.
   */
  async closed(boundMs: number): Promise<void> {
    const closing = [this.executor.stdout, this.executor.stderr].map((pipe) =>
      pipe === null || pipe.closed ? Promise.resolve() : once(pipe, "close").then(() => undefined),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closing),
      new Promise((resolve) => {
        timer = setTimeout(resolve, boundMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
