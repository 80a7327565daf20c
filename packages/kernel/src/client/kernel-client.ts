import type { ChildProcess } from "node:child_process";
import { terminateProcess } from "@tools/registry";
import { Dealer, Subscriber } from "zeromq";
import { KernelError } from "../kernel-error.js";
import { endpoint, type ConnectionDirectory } from "../protocol/connection.js";
import { MessageCodec, type JupyterMessage } from "../protocol/wire.js";
import { toKernelOutput, type ExecuteHandlers, type ExecuteOutcome } from "./kernel-output.js";

/** Which interpreter a kernel runs. */
export type KernelLanguage = "python" | "javascript";

interface PendingCell {
  readonly handlers: ExecuteHandlers;
  reply: ExecuteOutcome | undefined;
  idle: boolean;
  readonly resolve: (outcome: ExecuteOutcome) => void;
  readonly reject: (error: Error) => void;
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
}

const stderrKept = 4000;

/**
 * A client of one running kernel over the Jupyter protocol: shell, control and stdin as DEALERs
 * sharing one routing id (ipykernel sends input_request to the shell's identity), iopub as SUB.
 * Owns the kernel process and its socket directory; {@link dispose} ends both.
 */
export class KernelClient {
  readonly language: KernelLanguage;
  readonly description: string;
  private readonly child: ChildProcess;
  private readonly connection: ConnectionDirectory;
  private readonly codec: MessageCodec;
  private readonly shell: Dealer;
  private readonly control: Dealer;
  private readonly stdin: Dealer;
  private readonly iopub: Subscriber;
  private readonly cells = new Map<string, PendingCell>();
  private readonly replies = new Map<string, (message: JupyterMessage) => void>();
  private iopubSeen = false;
  private iopubWaiters: (() => void)[] = [];
  private stderrTail = "";
  private exitReason: string | undefined;
  private exitListeners: ((reason: string) => void)[] = [];
  private disposing: Promise<void> | undefined;
  /** Bumped by every interrupt: input replies computed before it are dropped. */
  private epoch = 0;

  private constructor(options: KernelConnectOptions) {
    this.language = options.language;
    this.description = options.description;
    this.child = options.child;
    this.connection = options.connection;
    this.codec = new MessageCodec(options.connection.info.key);
    const routingId = `tools-${this.codec.session.slice(0, 8)}`;
    this.shell = new Dealer({ routingId, linger: 0 });
    this.control = new Dealer({ routingId, linger: 0 });
    this.stdin = new Dealer({ routingId, linger: 0 });
    this.iopub = new Subscriber({ linger: 0 });
    const info = options.connection.info;
    this.shell.connect(endpoint(info, "shell"));
    this.control.connect(endpoint(info, "control"));
    this.stdin.connect(endpoint(info, "stdin"));
    this.iopub.connect(endpoint(info, "iopub"));
    this.iopub.subscribe();
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-stderrKept);
    });
    this.child.stdout?.resume();
    this.child.once("exit", (code, signal) => this.onExit(code, signal));
    this.child.once("error", (error) => this.onExit(null, null, error.message));
    void this.readLoop(this.shell, (message) => this.onReply(message));
    void this.readLoop(this.control, (message) => this.onReply(message));
    void this.readLoop(this.stdin, (message) => this.onStdin(message));
    void this.readLoop(this.iopub, (message) => this.onIopub(message));
  }

  /**
   * Connects to a just-spawned kernel and waits until it is ready: a kernel_info_reply AND one
   * iopub message seen (iopub drops what was published before we subscribed, so kernel_info is
   * re-sent until something arrives).
   */
  static async connect(options: KernelConnectOptions): Promise<KernelClient> {
    const client = new KernelClient(options);
    try {
      await client.waitReady(options.readyTimeoutMs ?? 30_000);
      return client;
    } catch (error) {
      await client.dispose();
      throw error;
    }
  }

  /** Process id of the kernel (the leader of its process group). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The private socket directory. */
  get directory(): string {
    return this.connection.directory;
  }

  /** Why the kernel is gone, or undefined while it lives. */
  get exited(): string | undefined {
    return this.exitReason;
  }

  /** Calls `listener` once when the kernel process ends. */
  onExitOnce(listener: (reason: string) => void): void {
    if (this.exitReason !== undefined) listener(this.exitReason);
    else this.exitListeners.push(listener);
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let replied = false;
    while (!(replied && this.iopubSeen)) {
      if (this.exitReason !== undefined) {
        throw new KernelError({
          code: "KERNEL_START_FAILED",
          message: `the ${this.language} kernel (${this.description}) ${this.exitReason} before it was ready`,
        });
      }
      if (Date.now() > deadline) {
        throw new KernelError({
          code: "KERNEL_START_FAILED",
          message: `the ${this.language} kernel (${this.description}) was not ready after ${timeoutMs} ms${this.stderrNote()}`,
        });
      }
      const waitMs = replied ? 50 : 200;
      const reply = this.request(this.shell, "kernel_info_request", {}, waitMs).then(
        () => true,
        () => false,
      );
      const seen = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), waitMs);
        this.iopubWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      const exit = new Promise<boolean>((resolve) => this.onExitOnce(() => resolve(false)));
      if (await Promise.race([reply, exit])) replied = true;
      await Promise.race([seen, exit]);
    }
  }

  private stderrNote(): string {
    const tail = this.stderrTail.trim();
    return tail === "" ? "" : `; its stderr ends with:\n${tail.split("\n").slice(-15).join("\n")}`;
  }

  /** Sends a request and resolves with its reply (bounded by `timeoutMs`). */
  private request(
    socket: Dealer,
    msgType: string,
    content: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<JupyterMessage> {
    const header = this.codec.header(msgType);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replies.delete(header.msg_id);
        reject(
          new KernelError({ code: "KERNEL_TIMEOUT", message: `no reply to ${msgType} in ${timeoutMs} ms` }),
        );
      }, timeoutMs);
      this.replies.set(header.msg_id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.send(socket, this.codec.encode({ header, content }));
    });
  }

  private send(socket: Dealer, frames: (Buffer | string)[]): void {
    socket.send(frames).catch(() => {
      // The socket closed under us (dispose or death); the pending cell fails through onExit.
    });
  }

  /**
   * Runs a cell. Resolves when both its execute_reply and its idle status have arrived; rejects at
   * once with the exit reason if the kernel dies first.
   */
  execute(
    code: string,
    handlers: ExecuteHandlers = {},
    options: { silent?: boolean } = {},
  ): Promise<ExecuteOutcome> {
    if (this.exitReason !== undefined || this.disposing) {
      return Promise.reject(this.deadError("was asked to run a cell"));
    }
    const header = this.codec.header("execute_request");
    return new Promise((resolve, reject) => {
      this.cells.set(header.msg_id, { handlers, reply: undefined, idle: false, resolve, reject });
      this.send(
        this.shell,
        this.codec.encode({
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
   * channel when the signal cannot be sent). Input replies still being computed are dropped.
   */
  interrupt(): void {
    this.epoch++;
    if (this.exitReason !== undefined) return;
    // One mechanism only: a second interrupt could land in the next cell.
    try {
      if (this.child.pid === undefined) throw new Error("no pid");
      process.kill(this.child.pid, "SIGINT");
    } catch {
      this.request(this.control, "interrupt_request", {}, 2000).catch(() => undefined);
    }
  }

  /** Ends the kernel's process group and removes its socket directory. Idempotent. */
  dispose(): Promise<void> {
    this.disposing ??= this.shutdown();
    return this.disposing;
  }

  private async shutdown(): Promise<void> {
    for (const socket of [this.shell, this.control, this.stdin, this.iopub]) socket.close();
    await terminateProcess(this.child, { group: true, graceMs: 1000 });
    this.connection.remove();
    this.failCells(this.deadError("was shut down"));
  }

  private deadError(doing: string): KernelError {
    const reason = this.exitReason ?? "was shut down";
    return new KernelError({
      code: "KERNEL_DIED",
      message: `the ${this.language} kernel ${reason}${doing === reason ? "" : ` (it ${doing})`}`,
    });
  }

  private failCells(error: Error): void {
    const cells = [...this.cells.values()];
    this.cells.clear();
    for (const cell of cells) cell.reject(error);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (this.exitReason !== undefined) return;
    this.exitReason =
      spawnError !== undefined
        ? `could not be started: ${spawnError}`
        : signal !== null
          ? `was killed by ${signal}`
          : `exited with code ${code ?? "?"}`;
    const withStderr = this.exitReason + this.stderrNote();
    // Output the kernel flushed just before it died may still be in the iopub queue: let it land.
    setTimeout(
      () =>
        this.failCells(
          new KernelError({
            code: "KERNEL_DIED",
            message: `the ${this.language} kernel ${withStderr}; its state (variables, imports) is lost — the next call starts a fresh kernel`,
          }),
        ),
      100,
    ).unref();
    const listeners = this.exitListeners.splice(0);
    for (const listener of listeners) listener(this.exitReason);
  }

  private async readLoop(
    socket: Dealer | Subscriber,
    handle: (message: JupyterMessage) => void,
  ): Promise<void> {
    try {
      for await (const frames of socket) {
        const message = this.codec.decode(frames);
        if (message) handle(message);
      }
    } catch {
      // Closed: the loop ends with the socket.
    }
  }

  private onReply(message: JupyterMessage): void {
    const parentId = message.parentHeader.msg_id;
    if (parentId === undefined) return;
    const waiter = this.replies.get(parentId);
    if (waiter) {
      this.replies.delete(parentId);
      waiter(message);
      return;
    }
    const cell = this.cells.get(parentId);
    if (!cell || message.header.msg_type !== "execute_reply") return;
    const status = message.content.status;
    const count = message.content.execution_count;
    cell.reply = {
      status: status === "ok" || status === "aborted" ? status : "error",
      ...(typeof count === "number" ? { executionCount: count } : {}),
    };
    cell.handlers.onActivity?.();
    this.settle(parentId, cell);
  }

  private onIopub(message: JupyterMessage): void {
    if (!this.iopubSeen) {
      this.iopubSeen = true;
      for (const waiter of this.iopubWaiters.splice(0)) waiter();
    }
    const parentId = message.parentHeader.msg_id;
    if (parentId === undefined) return;
    const cell = this.cells.get(parentId);
    if (!cell) return;
    cell.handlers.onActivity?.();
    const type = message.header.msg_type;
    if (type === "status") {
      if (message.content.execution_state === "idle") {
        cell.idle = true;
        this.settle(parentId, cell);
      }
      return;
    }
    const output = toKernelOutput(type, message.content);
    if (output) cell.handlers.onOutput?.(output);
  }

  private onStdin(message: JupyterMessage): void {
    if (message.header.msg_type !== "input_request") return;
    const parentId = message.parentHeader.msg_id;
    const cell = parentId === undefined ? undefined : this.cells.get(parentId);
    const prompt = typeof message.content.prompt === "string" ? message.content.prompt : "";
    const password = message.content.password === true;
    const epoch = this.epoch;
    const answer = cell?.handlers.onInputRequest
      ? cell.handlers.onInputRequest(prompt, password)
      : Promise.resolve("");
    cell?.handlers.onActivity?.();
    void answer
      .catch(() => "")
      .then((value) => {
        // A reply computed across an interrupt, or after its cell ended, would answer the wrong input().
        if (epoch !== this.epoch || parentId === undefined || !this.cells.has(parentId)) return;
        if (this.exitReason !== undefined || this.disposing) return;
        this.send(
          this.stdin,
          this.codec.encode({
            header: this.codec.header("input_reply"),
            parentHeader: message.header,
            content: { value },
          }),
        );
      });
  }

  private settle(id: string, cell: PendingCell): void {
    if (cell.reply === undefined || !cell.idle) return;
    this.cells.delete(id);
    cell.resolve(cell.reply);
  }
}
