import type { ChildProcess } from "node:child_process";
import { terminateProcess } from "@tools/registry";

const stderrKept = 4000;

/**
 * The kernel's OS process as its client sees it: the tail of its stderr (for error messages), why
 * it ended, and who wants to know when it does. Does not kill it on its own; {@link terminate}
 * ends its whole process group.
 */
export class KernelProcess {
  private readonly child: ChildProcess;
  private readonly mark: string | undefined;
  private stderrTail = "";
  private exitReason: string | undefined;
  private exitListeners: ((reason: string) => void)[] = [];

  /** `mark`: the process mark it was spawned with, so that what its cells started ends with it. */
  constructor(child: ChildProcess, mark?: string) {
    this.child = child;
    this.mark = mark;
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-stderrKept);
    });
    this.child.stdout?.resume();
    this.child.once("exit", (code, signal) => this.onExit(code, signal));
    this.child.once("error", (error) => this.onExit(null, null, error.message));
  }

  /** Process id (the leader of its process group), or undefined when it could not be spawned. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Why the process is gone ("exited with code 1"), or undefined while it lives. */
  get exited(): string | undefined {
    return this.exitReason;
  }

  /** Calls `listener` once when the process ends — at once if it already has. */
  onExitOnce(listener: (reason: string) => void): void {
    if (this.exitReason !== undefined) listener(this.exitReason);
    else this.exitListeners.push(listener);
  }

  /** The last 15 lines of stderr as a sentence tail ("; its stderr ends with: …"), or "" when it is empty. */
  stderrNote(): string {
    const tail = this.stderrTail.trim();
    return tail === "" ? "" : `; its stderr ends with:\n${tail.split("\n").slice(-15).join("\n")}`;
  }

  /**
   * Ends the process group and every process carrying the kernel's mark (what a cell started in
   * a session of its own, a daemon): SIGTERM, then SIGKILL after 1 s; resolves once it is gone.
   */
  terminate(): Promise<void> {
    return terminateProcess(this.child, { group: true, mark: this.mark, graceMs: 1000 });
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (this.exitReason !== undefined) return;
    this.exitReason =
      spawnError !== undefined
        ? `could not be started: ${spawnError}`
        : signal !== null
          ? `was killed by ${signal}`
          : `exited with code ${code ?? "?"}`;
    const listeners = this.exitListeners.splice(0);
    for (const listener of listeners) listener(this.exitReason);
  }
}
