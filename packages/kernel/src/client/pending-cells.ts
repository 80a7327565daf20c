import type { JupyterMessage } from "../protocol/wire.js";
import {
  toKernelOutputs,
  type ExecuteHandlers,
  type ExecuteOutcome,
  type KernelOutput,
} from "./kernel-output.js";

interface PendingCell {
  readonly handlers: ExecuteHandlers;
  reply: ExecuteOutcome | undefined;
  idle: boolean;
  /** Set once idle came without a reply: ends the wait for one. */
  noReplyTimer: NodeJS.Timeout | undefined;
  /** Its execute_input came: the kernel is running the cell. */
  started: boolean;
  /** Told once whether the cell started (true) or ended without starting (false). */
  onStart: ((started: boolean) => void) | undefined;
  readonly resolve: (outcome: ExecuteOutcome) => void;
  readonly reject: (error: Error) => void;
}

/** How long a reply may trail its cell's idle status, in ms, by default. */
export const defaultReplyGraceMs = 2000;

/**
 * The cells sent to a kernel and not yet finished, by execute_request msg_id. A cell settles when
 * both its execute_reply and its idle status have arrived (in either order); its iopub output and
 * any traffic for it go to its handlers meanwhile. A kernel sends the reply before the idle
 * status, so a reply that has not come `replyGraceMs` after idle never will (ipykernel fails on
 * a NUL in the code inside its handler, then reports idle): the cell is rejected with the error
 * `noReply` makes, and the kernel, which went on serving, is left alone. `ownKernel`: the kernel
 * is our JavaScript kernel, whose own output marks are read (see toKernelOutput).
 */
export class PendingCells {
  private readonly cells = new Map<string, PendingCell>();

  /**
   * `onLate` takes output whose cell is no longer pending, when no other cell is (it came after
   * the cell finished, or was given up on); with one pending, that cell's handler takes it as a
   * `late` output.
   */
  constructor(
    private readonly noReply: (graceMs: number) => Error,
    private readonly ownKernel: boolean,
    private readonly replyGraceMs = defaultReplyGraceMs,
    private readonly onLate: (output: KernelOutput) => void = () => undefined,
  ) {}

  /**
   * Tracks the cell sent as `id` until it settles or {@link failAll} rejects it. `announced`: the
   * kernel sends an execute_input when it starts the cell (not for a silent one).
   */
  add(
    id: string,
    handlers: ExecuteHandlers,
    resolve: (outcome: ExecuteOutcome) => void,
    reject: (error: Error) => void,
    announced = true,
  ): void {
    this.cells.set(id, {
      handlers,
      reply: undefined,
      idle: false,
      noReplyTimer: undefined,
      started: !announced,
      onStart: undefined,
      resolve,
      reject,
    });
  }

  /**
   * The id of the last pending cell when the kernel has not said it started it yet (no
   * execute_input), or undefined.
   */
  unstarted(): string | undefined {
    const last = [...this.cells].at(-1);
    return last !== undefined && !last[1].started ? last[0] : undefined;
  }

  /**
   * Calls `listener(true)` once the pending cell `id` starts (its execute_input comes), or
   * `listener(false)` if it settles or fails first; it replaces one set before.
   */
  whenStarted(id: string, listener: (started: boolean) => void): void {
    const cell = this.cells.get(id);
    if (!cell) listener(false);
    else if (cell.started) listener(true);
    else cell.onStart = listener;
  }

  /** True while the cell sent as `id` is pending. */
  has(id: string): boolean {
    return this.cells.has(id);
  }

  /** The handlers of the pending cell sent as `id`, if any. */
  handlersOf(id: string | undefined): ExecuteHandlers | undefined {
    return id === undefined ? undefined : this.cells.get(id)?.handlers;
  }

  /** Takes a shell or control message; only an execute_reply of a pending cell counts. */
  onReply(message: JupyterMessage): void {
    const parentId = message.parentHeader.msg_id;
    if (parentId === undefined) return;
    const cell = this.cells.get(parentId);
    if (!cell || message.header.msg_type !== "execute_reply") return;
    const status = message.content.status;
    const count = message.content.execution_count;
    cell.reply = {
      status: status === "ok" || status === "aborted" ? status : "error",
      ...(typeof count === "number" ? { executionCount: count } : {}),
      ...(message.metadata["tools/interrupt_delivered"] === true ? { interruptDelivered: true } : {}),
      ...(message.metadata["tools/interrupt_own_handler"] === true ? { interruptOwnHandler: true } : {}),
    };
    cell.handlers.onActivity?.();
    this.settle(parentId, cell);
  }

  /** Takes an iopub message: a status marks its cell idle, anything else is output for it. */
  onIopub(message: JupyterMessage): void {
    const parentId = message.parentHeader.msg_id;
    if (parentId === undefined) return;
    const cell = this.cells.get(parentId);
    const type = message.header.msg_type;
    if (!cell) {
      const late = toKernelOutputs(type, message.content, this.ownKernel);
      if (late.length === 0) return;
      // Sent before the running cell began (the sockets are not ordered with each other): its own.
      const running = [...this.cells.values()].at(-1);
      if (running?.handlers.onOutput)
        running.handlers.onOutput({ type: "late", outputs: late, left: { outputs: 0, chars: 0 } });
      else for (const output of late) this.onLate(output);
      return;
    }
    cell.handlers.onActivity?.();
    if (type === "execute_input") {
      cell.started = true;
      this.tellStart(cell, true);
      return;
    }
    if (type === "status") {
      if (message.content.execution_state === "idle" && !cell.idle) {
        cell.idle = true;
        this.settle(parentId, cell);
        if (cell.reply === undefined) {
          cell.noReplyTimer = setTimeout(() => {
            if (this.cells.get(parentId) !== cell) return;
            this.cells.delete(parentId);
            this.tellStart(cell, false);
            cell.reject(this.noReply(this.replyGraceMs));
          }, this.replyGraceMs);
        }
      }
      return;
    }
    for (const output of toKernelOutputs(type, message.content, this.ownKernel))
      cell.handlers.onOutput?.(output);
  }

  /** Rejects every pending cell with `error` and forgets them. */
  failAll(error: Error): void {
    const cells = [...this.cells.values()];
    this.cells.clear();
    for (const cell of cells) {
      clearTimeout(cell.noReplyTimer);
      this.tellStart(cell, false);
      cell.reject(error);
    }
  }

  private settle(id: string, cell: PendingCell): void {
    if (cell.reply === undefined || !cell.idle) return;
    clearTimeout(cell.noReplyTimer);
    this.cells.delete(id);
    this.tellStart(cell, false);
    cell.resolve(cell.reply);
  }

  private tellStart(cell: PendingCell, started: boolean): void {
    const listener = cell.onStart;
    cell.onStart = undefined;
    listener?.(started);
  }
}
