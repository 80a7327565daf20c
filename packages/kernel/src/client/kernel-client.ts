import type { ChildProcess } from "node:child_process";
import { KernelError } from "../kernel-error.js";
import type { ConnectionDirectory } from "../protocol/connection.js";
import type { JupyterMessage } from "../protocol/wire.js";
import { KernelChannels } from "./kernel-channels.js";
import type { ExecuteHandlers, ExecuteOutcome } from "./kernel-output.js";
import { KernelProcess } from "./kernel-process.js";
import { askedFromOtherThread, interruptedInputReply, lateInputReply } from "./late-input.js";
import { LateOutput } from "./late-output.js";
import { waitUntilReady } from "./kernel-readiness.js";
import { PendingCells } from "./pending-cells.js";

/** Which interpreter a kernel runs. */
export type KernelLanguage = "python" | "javascript";

/** One {@link KernelClient.interrupt}: whether its signal has gone to the kernel yet. */
export interface InterruptAttempt {
  /**
   * True once SIGINT (or an interrupt_request) was sent; false while the kernel has not started
   * the cell, and for good when the cell ends without starting or the kernel is gone.
   */
  readonly sent: boolean;
}

/** Options of {@link KernelClient.connect}. */
export interface KernelConnectOptions {
  readonly language: KernelLanguage;
  readonly child: ChildProcess;
  readonly connection: ConnectionDirectory;
  /** Longest wait for readiness, in ms; default 30 000. */
  readonly readyTimeoutMs?: number;
  /** How the interpreter was chosen, for error messages ("/p/.venv/bin/python"). */
  readonly description: string;
  /** The process mark the kernel was spawned with: what its cells start ends with it. */
  readonly mark?: string;
}

/**
 * A client of one running kernel over the Jupyter protocol: shell, control and stdin as DEALERs
 * sharing one routing id (ipykernel sends input_request to the shell's identity), iopub as SUB.
 * Owns the kernel process and its socket directory; {@link dispose} ends both.
 */
export class KernelClient {
  readonly language: KernelLanguage;
  readonly description: string;
  private readonly connection: ConnectionDirectory;
  private readonly channels: KernelChannels;
  private readonly kernel: KernelProcess;
  private readonly cells: PendingCells;
  private disposing: Promise<void> | undefined;
  /** Bumped by every interrupt: input replies computed before it are dropped. */
  private epoch = 0;
  /**
   * Bridged calls from a thread other than the main one, still waiting for their reply: an
   * interrupt answers them at once (SIGINT does not end their wait, and they hold the bridge's lock).
   */
  private readonly threadCalls = new Set<JupyterMessage>();
  /** Output that came for a finished cell, for the next one. */
  private readonly late = new LateOutput();

  private constructor(options: KernelConnectOptions) {
    this.language = options.language;
    this.description = options.description;
    // The JavaScript kernel is always ours (main.ts): its output marks are read.
    this.cells = new PendingCells(
      (graceMs) =>
        new KernelError({
          code: "KERNEL_NO_REPLY",
          message: `the ${this.language} kernel went idle without answering the request to run the cell (no execute_reply within ${graceMs / 1000} s of its idle status), so whether any of it ran is unknown; ipykernel does this when it fails to read a cell (a NUL character in the code, for one). The kernel and its state (variables, imports) are kept: check the cell for characters the kernel cannot read, then run it again.`,
        }),
      options.language === "javascript",
      undefined,
      (output) => this.late.add(output),
    );
    this.connection = options.connection;
    this.channels = new KernelChannels(options.connection.info);
    this.kernel = new KernelProcess(options.child, options.mark);
    this.kernel.onExitOnce((reason) => {
      // Output the kernel flushed just before it died may still be in the iopub queue: let it land.
      setTimeout(
        () =>
          this.cells.failAll(
            new KernelError({
              code: "KERNEL_DIED",
              // The stderr tail goes last: it is many lines, and would split the sentence.
              message: `the ${this.language} kernel ${reason}; its state (variables, imports) is lost — the next call starts a fresh kernel${this.kernel.stderrNote()}`,
            }),
          ),
        100,
      ).unref();
    });
    this.channels.listen({
      onReply: (message) => this.cells.onReply(message),
      onStdin: (message) => this.onStdin(message),
      onIopub: (message) => this.cells.onIopub(message),
    });
  }

  /**
   * Connects to a just-spawned kernel and waits until it is ready: a kernel_info_reply AND one
   * iopub message seen (iopub drops what was published before we subscribed, so kernel_info is
   * re-sent until something arrives).
   */
  static async connect(options: KernelConnectOptions): Promise<KernelClient> {
    const client = new KernelClient(options);
    try {
      await waitUntilReady(
        {
          channels: client.channels,
          process: client.kernel,
          language: client.language,
          description: client.description,
        },
        options.readyTimeoutMs ?? 30_000,
      );
      return client;
    } catch (error) {
      await client.dispose();
      throw error;
    }
  }

  /** Process id of the kernel (the leader of its process group). */
  get pid(): number | undefined {
    return this.kernel.pid;
  }

  /** The private socket directory. */
  get directory(): string {
    return this.connection.directory;
  }

  /** Why the kernel is gone, or undefined while it lives. */
  get exited(): string | undefined {
    return this.kernel.exited;
  }

  /** Calls `listener` once when the kernel process ends. */
  onExitOnce(listener: (reason: string) => void): void {
    this.kernel.onExitOnce(listener);
  }

  /**
   * Runs a cell. Resolves when both its execute_reply and its idle status have arrived; rejects at
   * once with the exit reason if the kernel dies first. Output that came for earlier cells after
   * they finished goes to `onOutput` first, as one `late` output.
   */
  execute(
    code: string,
    handlers: ExecuteHandlers = {},
    options: { silent?: boolean } = {},
  ): Promise<ExecuteOutcome> {
    if (this.kernel.exited !== undefined || this.disposing) {
      return Promise.reject(this.deadError("was asked to run a cell"));
    }
    const codec = this.channels.codec;
    const header = codec.header("execute_request");
    const late = this.late.take();
    if (late) handlers.onOutput?.(late);
    return new Promise((resolve, reject) => {
      // A silent cell has no execute_input: an interrupt does not wait for it.
      this.cells.add(header.msg_id, handlers, resolve, reject, !(options.silent ?? false));
      this.channels.send(
        this.channels.shell,
        codec.encode({
          header,
          content: {
            code,
            silent: options.silent ?? false,
            store_history: !(options.silent ?? false),
            user_expressions: {},
            allow_stdin: true,
            // Cells never queue (eval is serial); with true, ipykernel aborts a request that arrives
            // shortly after a failed one.
            stop_on_error: false,
          },
        }),
      );
    });
  }

  /**
   * Interrupts the running cell: SIGINT to the kernel process (an interrupt_request on the control
   * channel when the signal cannot be sent), once the kernel has started the cell (its
   * execute_input came): ipykernel ignores SIGINT until it begins handling a request, so one sent
   * earlier was lost and the cell ran to its end. A cell that ends without starting gets none,
   * nor does the next one; a kernel that never starts it is for the caller to give up on. Input
   * replies still being computed are dropped; a call from another thread than the main one (which
   * SIGINT does not reach) gets an error at once. The attempt returned says whether the signal
   * has gone yet, so a caller giving up on the kernel can say whether it was interrupted at all.
   */
  interrupt(): InterruptAttempt {
    const attempt = { sent: false };
    this.epoch++;
    for (const request of this.threadCalls) {
      const prompt = typeof request.content.prompt === "string" ? request.content.prompt : "";
      this.sendInputReply(request, interruptedInputReply(prompt));
    }
    this.threadCalls.clear();
    if (this.kernel.exited !== undefined) return attempt;
    const waiting = this.cells.unstarted();
    if (waiting === undefined) {
      attempt.sent = this.signalInterrupt();
      return attempt;
    }
    this.cells.whenStarted(waiting, (started) => {
      if (started) attempt.sent = this.signalInterrupt();
    });
    return attempt;
  }

  /** Sends the interrupt; false when the kernel is gone or going, and nothing was sent. */
  private signalInterrupt(): boolean {
    if (this.kernel.exited !== undefined || this.disposing) return false;
    // One mechanism only: a second interrupt could land in the next cell.
    try {
      const pid = this.kernel.pid;
      if (pid === undefined) throw new Error("no pid");
      process.kill(pid, "SIGINT");
    } catch {
      this.channels.request(this.channels.control, "interrupt_request", {}, 2000).catch(() => undefined);
    }
    return true;
  }

  /** Ends the kernel's process group and removes its socket directory. Idempotent. */
  dispose(): Promise<void> {
    this.disposing ??= this.shutdown();
    return this.disposing;
  }

  private async shutdown(): Promise<void> {
    this.channels.close();
    await this.kernel.terminate();
    this.connection.remove();
    this.cells.failAll(this.deadError("was shut down"));
  }

  private deadError(doing: string): KernelError {
    const reason = this.kernel.exited ?? "was shut down";
    return new KernelError({
      code: "KERNEL_DIED",
      message: `the ${this.language} kernel ${reason}${doing === reason ? "" : ` (it ${doing})`}`,
    });
  }

  private onStdin(message: JupyterMessage): void {
    if (message.header.msg_type !== "input_request") return;
    const parentId = message.parentHeader.msg_id;
    const prompt = typeof message.content.prompt === "string" ? message.content.prompt : "";
    const password = message.content.password === true;
    if (parentId === undefined || !this.cells.has(parentId)) {
      // A thread or a timer of a finished cell asks: nobody runs the call, but the kernel waits for
      // a reply (Python's helper holding its lock meanwhile), so it gets an error at once.
      this.sendInputReply(message, lateInputReply(prompt, this.language));
      return;
    }
    const handlers = this.cells.handlersOf(parentId);
    const epoch = this.epoch;
    if (askedFromOtherThread(prompt)) this.threadCalls.add(message);
    const answer = handlers?.onInputRequest ? handlers.onInputRequest(prompt, password) : Promise.resolve("");
    handlers?.onActivity?.();
    void answer
      .catch(() => "")
      .then((value) => {
        this.threadCalls.delete(message);
        // A reply computed across an interrupt would answer the wrong input(): the interrupted one
        // raised, and the next request may be out already; another thread's call was answered
        // with an error by the interrupt itself. One whose cell ended meanwhile still goes: only a
        // thread or a timer can ask past its cell's end, and it is waiting for it.
        if (epoch !== this.epoch) return;
        this.sendInputReply(message, value);
      });
  }

  private sendInputReply(request: JupyterMessage, value: string): void {
    if (this.kernel.exited !== undefined || this.disposing) return;
    const codec = this.channels.codec;
    this.channels.send(
      this.channels.stdin,
      codec.encode({
        header: codec.header("input_reply"),
        parentHeader: request.header,
        content: { value },
      }),
    );
  }
}
