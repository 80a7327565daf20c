import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { basename } from "node:path";
import { commandLine, descendants, isAlive, startTime } from "../internal/process-tree.js";
import type { BreakpointResult } from "./breakpoint-store.js";
import { handshake, sendBreakpoints, type OnOtherAdapter } from "./handshake.js";
import * as inspection from "./inspection.js";
import type { OutputRing } from "./output-ring.js";
import { describeOtherStops, settledStop } from "./other-stops.js";
import { SessionCore } from "./session-core.js";
import type { SessionOptions } from "./session-options.js";
import type { Outcome, SessionState, StopInfo } from "./session-state.js";
import * as stepping from "./stepping.js";

export type { SessionOptions } from "./session-options.js";
export type { Outcome, SessionState, StopInfo } from "./session-state.js";
export type { FramePage, VariableChildren } from "./inspection.js";

/** A process a launched program started, which the session does not follow (see `unfollowedProcesses`). */
export interface UnfollowedProcess {
  readonly pid: number;
  /** The program it runs (the name of its first argument): the program's own for a fork. */
  readonly command: string;
  /**
   * A fork of the program that did not exec: it carries debugpy's tracing, not its connection,
   * so a breakpoint it reaches holds it for good.
   */
  readonly fork: boolean;
}

/**
 * One debug session: the handshake, our own stopped/running state, stop normalisation, the
 * inspection requests (answered only while stopped, with references valid for the current stop
 * only), and a terminate that leaves no process or file behind.
 *
 * The face of the session; the work is split by concept: the shared state in `session-core`,
 * fed by `adapter-events`, and `handshake`, `inspection`, `stepping` and `shutdown` working on it.
 */
export class DebugSession {
  private readonly core: SessionCore;

  constructor(options: SessionOptions) {
    this.core = new SessionCore(options);
  }

  get adapterId(): AdapterId {
    return this.core.adapterId;
  }

  get description(): string {
    return this.core.description;
  }

  get startedAt(): number {
    return this.core.startedAt;
  }

  get output(): OutputRing {
    return this.core.output;
  }

  get state(): SessionState {
    return this.core.state;
  }

  get lastStop(): StopInfo | undefined {
    return this.core.lastStop;
  }

  /**
   * The stop the program is at when no answer has described it yet (see {@link describeStop}):
   * it came while nobody waited for it (after a "still running", or after the wait of
   * breakpoints set while it ran); else undefined.
   */
  get unreportedStop(): StopInfo | undefined {
    const stop = this.core.lastStop;
    return this.core.state === "stopped" && stop !== this.core.reportedStop ? stop : undefined;
  }

  get exitCode(): number | undefined {
    return this.core.exitCode;
  }

  /** "the program exited with code 3" (or "was killed by signal …"): meant once it has exited. */
  get exitText(): string {
    return this.core.exitText();
  }

  get endReason(): string | undefined {
    return this.core.endReason;
  }

  /**
   * Why the session is ending while its end runs (a cancelled launch, the TTL, a terminate, a
   * program that exited), else undefined: before it began, and once it has ended.
   */
  get ending(): string | undefined {
    const reason = this.core.endingReason;
    if (reason === undefined || this.core.state === "ended") return undefined;
    return typeof reason === "function" ? reason() : reason;
  }

  /** Settles once the session has ended (at once when it has); never rejects. */
  ended(): Promise<void> {
    if (this.core.state === "ended") return Promise.resolve();
    return new Promise((resolve) => this.onEnd(() => resolve()));
  }

  get capabilities(): DebugProtocol.Capabilities {
    return this.core.capabilities;
  }

  /** True for an attached session: terminate detaches and leaves the program running. */
  get attached(): boolean {
    return !this.core.options.terminateDebuggee;
  }

  /** Debuggee pids learnt from `process` events. */
  get debuggeePids(): ReadonlySet<number> {
    return this.core.debuggeePids;
  }

  /**
   * The live processes a launched program started (subprocesses, fork children, theirs) under
   * debugpy, which the session does not follow (the launch turns debugpy's `subProcess` off),
   * children first; empty under the other adapters and for an attach.
   */
  unfollowedProcesses(): UnfollowedProcess[] {
    if (this.core.adapterId !== "debugpy" || this.attached) return [];
    // A debuggee pid reused since it was learnt is someone else's: its children are not the program's.
    const own = [...this.core.debuggeePids].filter((pid) => startTime(pid) === this.core.pidStarts.get(pid));
    return own.flatMap((debuggee) => {
      const program = commandLine(debuggee)?.join("\0");
      return descendants(debuggee).flatMap((pid): UnfollowedProcess[] => {
        const args = commandLine(pid);
        if (!isAlive(pid) || args === undefined) return [];
        // A fork that did not exec runs the program's own command line (debugpy's, with its
        // `--connect`); one that ran another program (`sleep`, `python child.py`) does not.
        const fork = program !== undefined && program.length > 0 && args.join("\0") === program;
        return [{ pid, command: basename(args[0] ?? "") || "?", fork }];
      });
    });
  }

  /** Pid of the process we spawned (the adapter, or the reaper shim above it), if any. */
  get spawnedPid(): number | undefined {
    return this.core.options.adapter.child?.pid;
  }

  /** Pid of the adapter process itself, while it runs (undefined for a direct TCP attach). */
  get adapterPid(): number | undefined {
    return this.core.options.adapter.adapterPid();
  }

  /** Called once with the reason when the session ends. */
  onEnd(listener: (reason: string) => void): void {
    if (this.core.endReason !== undefined) listener(this.core.endReason);
    else this.core.endListeners.push(listener);
  }

  /**
   * The handshake that works with every adapter: initialize → launch/attach (not awaited) →
   * `initialized` → breakpoints → configurationDone → the launch response; then the first stop,
   * the exit, or `firstStopMs` passes. `onOtherAdapter`: what the session becomes (or a throw)
   * when `initialize` shows another adapter than its own.
   */
  start(
    request: "launch" | "attach",
    args: Record<string, unknown>,
    timeouts: { initializeMs: number; launchMs: number; firstStopMs: number },
    onOtherAdapter?: OnOtherAdapter,
  ): Promise<Outcome> {
    return handshake(this.core, request, args, timeouts, onOtherAdapter);
  }

  /**
   * The next stop, the program's exit or the session's end, or a timeout after `ms`; at once
   * when the program is stopped or over already. Waiting starts at the call: a stop that a
   * request made next brings about is not missed. The `ms` count from the call, or from when
   * `from` settles (a request's answer, however long the adapter took to give it).
   */
  waitOutcome(ms: number, from?: Promise<unknown>): Promise<Outcome> {
    return this.core.waitOutcome(ms, from);
  }

  /**
   * Sends one file's breakpoints (the session is configured) and stores the answer; undefined
   * for a file of another language than the adapter's, which is not sent. `earlier`: the lines
   * of the file the session may hold before this request (kept by a request that fails).
   */
  sendBreakpoints(file: string, earlier?: readonly number[]): Promise<BreakpointResult[] | undefined> {
    return sendBreakpoints(this.core, file, earlier);
  }

  /**
   * True once configurationDone was sent: breakpoints go to the adapter at once. False again
   * once the session's end has begun: they are for the next session, not for an adapter that
   * is being disconnected (its refusal read as the program's exit).
   */
  get isConfigured(): boolean {
    return (
      this.core.configured &&
      this.core.endingReason === undefined &&
      this.core.state !== "ended" &&
      this.core.state !== "exited"
    );
  }

  /** A request to the adapter; a refusal becomes a DebugError the model can read. */
  request<R extends DebugProtocol.Response>(command: string, args?: unknown, timeoutMs = 10_000): Promise<R> {
    return this.core.request<R>(command, args, timeoutMs);
  }

  /** Thread ids and names. `signal` gives the call up: it rejects at once with the signal's reason. */
  threads(signal?: AbortSignal): Promise<DebugProtocol.Thread[]> {
    return inspection.threads(this.core, signal);
  }

  /**
   * A page of a thread's frames from `#startFrame` (at most 30); the ids of every page are valid
   * until the next resume. `signal` gives the call up: it rejects at once with the signal's
   * reason, and sends nothing more.
   */
  stack(threadId?: number, startFrame = 0, signal?: AbortSignal): Promise<inspection.FramePage> {
    return inspection.stack(this.core, threadId, startFrame, signal);
  }

  /**
   * Scopes of a frame from the current stop. `signal` gives the call up: it rejects at once with
   * the signal's reason, and its request holds up no later call.
   */
  scopes(frameId: number, signal?: AbortSignal): Promise<DebugProtocol.Scope[]> {
    return inspection.scopes(this.core, frameId, signal);
  }

  /**
   * Children of a reference (at most 50, values clipped). `signal` gives the call up: it
   * rejects at once with the signal's reason, and its request holds up no later call.
   */
  variables(reference: number, signal?: AbortSignal): Promise<inspection.VariableChildren> {
    return inspection.variables(this.core, reference, signal);
  }

  /**
   * Evaluates in a frame of the current stop (default: the frame the stop is reported at).
   * `signal` gives the call up: it rejects at once with the signal's reason, and an expression
   * not sent yet is never sent (it runs no code).
   */
  evaluate(
    expression: string,
    frameId?: number,
    signal?: AbortSignal,
  ): Promise<DebugProtocol.EvaluateResponse["body"]> {
    return inspection.evaluate(this.core, expression, frameId, signal);
  }

  /** continue / next / stepIn / stepOut: returns at the next stop, the exit, or the bound. */
  resume(command: "continue" | "next" | "stepIn" | "stepOut", threadId?: number): Promise<Outcome> {
    return stepping.resume(this.core, command, threadId);
  }

  /** Pauses; idempotent: an already-stopped program is reported as such without asking. */
  pause(threadId?: number): Promise<Outcome | { kind: "already"; stop: StopInfo | undefined }> {
    return stepping.pause(this.core, threadId);
  }

  /**
   * Where a stop is: the first frame in the working directory, its line's text, the exception if
   * any; then the other threads stopped with a reason of their own in the same stop (lldb).
   * The current stop counts as reported from then on (see {@link unreportedStop}), unless
   * `answer` (the signal of the call that answers with it) was aborted: that answer went nowhere.
   */
  async describeStop(stop: StopInfo, answer?: AbortSignal): Promise<string> {
    const settled = await settledStop(this.core, stop);
    const text = await inspection.describeStop(this.core, settled);
    const others = await describeOtherStops(this.core, settled);
    if (this.core.state === "stopped" && settled === this.core.lastStop && !answer?.aborted)
      this.core.reportedStop = settled;
    return text + others;
  }

  /**
   * Ends the session: disconnect (terminating a launched debuggee), a short wait, then SIGKILL
   * for whatever remains of the adapter's tree and the debuggee, and removal of temporary files.
   * Idempotent; never throws.
   */
  terminate(reason: string | (() => string)): Promise<void> {
    return this.core.terminate(reason);
  }
}
