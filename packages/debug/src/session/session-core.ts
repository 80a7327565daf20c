import type { DebugProtocol } from "@vscode/debugprotocol";
import { countNoun } from "@tools/registry";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { DebugError } from "../errors/debug-error.js";
import { descendants, startTime, zombieExit } from "../internal/process-tree.js";
import { onAdapterEvent } from "./adapter-events.js";
import { adapterRequest } from "./adapter-request.js";
import { watchDebuggee } from "./debuggee-watch.js";
import { exitPhrase, exitSignal, signalNamed, type ExitSignal } from "./exit-signal.js";
import { OutputRing } from "./output-ring.js";
import type { SessionOptions } from "./session-options.js";
import type { Outcome, SessionState, StopInfo } from "./session-state.js";
import { shutdown } from "./shutdown.js";
import { forgetSourceLines } from "./source-lines.js";
import type { FramePage } from "./inspection.js";
import { renumbersIds, type ChildCount, type ScopeOrigin, type StopSnapshot } from "./stop-ids.js";

type Waiter = (outcome: Outcome) => void;

/**
 * The state every part of a session shares (not public: {@link DebugSession} is the face): our
 * own stopped/running state fed by the adapter's events (see `onAdapterEvent`), the waits for
 * the next outcome, the references valid for the current stop, and requests that turn refusals
 * into DebugErrors (see `adapterRequest`). The handshake, inspection, stepping and shutdown live
 * in their own modules and work on it.
 */
export class SessionCore {
  /** Changed only by the handshake, when `initialize` shows another adapter (a port attach). */
  adapterId: AdapterId;
  description: string;
  readonly startedAt = Date.now();
  readonly output: OutputRing;
  options: SessionOptions;
  state: SessionState = "starting";
  lastStop: StopInfo | undefined;
  /**
   * The last stop an answer described (see `DebugSession.describeStop`): a {@link lastStop}
   * other than it came while nobody waited (after a "still running", after the breakpoints'
   * wait), and a continue or step reports it instead of resuming past it.
   */
  reportedStop: StopInfo | undefined;
  exitCode: number | undefined;
  /** The signal that killed the program (see `exitSignal`), set with {@link exitCode}. */
  exitSignal: ExitSignal | undefined;
  /**
   * How a debuggee process was seen to end (its wait status while it was a zombie): the exit
   * code or signal when the adapter does not report one, or reports only -1 (lldb-dap after a
   * SIGKILL from outside).
   */
  seenExit: { signal: number } | { code: number } | undefined;
  endReason: string | undefined;
  capabilities: DebugProtocol.Capabilities = {};
  /** Debuggee pids learnt from `process` events. */
  readonly debuggeePids = new Set<number>();
  /** Pids of the adapter's tree seen while it ran (launchers, debuggees). */
  readonly knownPids = new Set<number>();
  /** The start time of each pid of {@link knownPids} and {@link debuggeePids} when it was learnt. */
  readonly pidStarts = new Map<number, string | undefined>();
  /** What a launched debuggee's output is open on (see `watchDebuggee`): its own, nobody else's. */
  readonly outputTargets: string[] = [];
  /** Processes on the adapter's side that may hold the program's output (the debuggee's parent). */
  readonly adapterSide = new Set<number>();
  /** How many processes the program left behind that the end of the session ended; set by shutdown. */
  leftBehind = 0;
  configured = false;
  terminating: Promise<void> | undefined;
  /** Why the session is ending, from the first {@link terminate} (its reason, read when asked). */
  endingReason: string | (() => string) | undefined;
  validFrames = new Set<number>();
  /**
   * The tool's own frame ids of the current stop, by place (`thread:index`), for the adapters
   * that number frames anew (see `renumbersIds`); never reused by a later stop.
   */
  framesByPlace = new Map<string, number>();
  /** The adapter's id of each of the tool's own frame ids of the current stop. */
  adapterFrames = new Map<number, number>();
  /** The next of the tool's own frame ids: counts on over the whole session. */
  nextFrameId = 1;
  /** The adapter's reference of each of the tool's own references of the current stop. */
  adapterReferences = new Map<number, number>();
  /** The next of the tool's own references: counts on over the whole session. */
  nextReference = 1;
  /** The frame and name of each scope reference of the current stop (see `rebindScope`). */
  scopeFrames = new Map<number, ScopeOrigin>();
  /** The adapter's frame id of the latest `scopes` request of the current stop. */
  scopesFrame: number | undefined;
  /**
   * The end of the latest `scopes` or `variables` at an adapter that binds scope references to
   * the frame asked about last (see `scopeTurn`): the next one starts after it. Never rejects.
   */
  scopeQueue: Promise<unknown> = Promise.resolve();
  /** The threads whose frames a `stack` page listed in the current stop. */
  listedThreads = new Set<number>();
  /**
   * The first page of the stopped thread's frames, once listed in the current stop: where an
   * `evaluate` without a frame is answered, without asking the adapter again (see `evaluate`).
   */
  stopPage: FramePage | undefined;
  validReferences = new Set<number>();
  /** How many children the adapter said a reference of the current stop has, when it said. */
  childCounts = new Map<number, ChildCount>();
  /**
   * Other threads stopped with a reason of their own in the current stop (a breakpoint another
   * thread hit while one stepped), by thread id; the stop is reported at {@link lastStop}.
   */
  alsoStopped = new Map<number, StopInfo>();
  /** True from a `pause` request to the next stop: lldb reports that stop as a SIGSTOP exception. */
  pauseRequested = false;
  readonly endListeners: Array<(reason: string) => void> = [];

  private waiters: Waiter[] = [];
  private initializedSeen = false;
  private initializedWaiters: Array<() => void> = [];

  constructor(options: SessionOptions) {
    this.options = options;
    this.adapterId = options.adapterId;
    this.description = options.description;
    this.output = options.output ?? new OutputRing();
    options.adapter.connection.onEvent((event) => onAdapterEvent(this, event));
    void options.adapter.exited.then(({ code, signal }) => {
      if (this.terminating) return;
      const tail = options.adapter.stderrTail().trim().split("\n").slice(-5).join("\n");
      const how = signal ?? `code ${code}`;
      void this.terminate(() =>
        this.state === "exited"
          ? this.exitText()
          : `the debug adapter exited unexpectedly (${how})${tail ? `: ${tail}` : ""}`,
      );
    });
  }

  /**
   * Remembers the adapter's process tree (launchers, debuggees): if the adapter dies, its
   * children are reparented and can no longer be found from it.
   */
  rememberTree(): void {
    const pid = this.options.adapter.child?.pid;
    if (pid) for (const child of descendants(pid)) this.learn(this.knownPids, child);
  }

  /**
   * A debuggee process: ended with the session, and for a launched program watched too, since
   * the adapter may not report its exit (see `watchDebuggee`).
   */
  learnDebuggee(pid: number): void {
    if (this.debuggeePids.has(pid)) return;
    this.learn(this.debuggeePids, pid);
    if (this.options.terminateDebuggee) watchDebuggee(this, pid);
  }

  /**
   * Adds `pid` to `set` with its start time: killed at the end only if it is still the same
   * process (the session can last 30 minutes; a pid that exited meanwhile may be someone else's).
   */
  private learn(set: Set<number>, pid: number): void {
    set.add(pid);
    if (!this.pidStarts.has(pid)) this.pidStarts.set(pid, startTime(pid));
  }

  /**
   * The program is gone: settle the waits and end the session (debugpy never exits by itself).
   * Nothing when the session is ending already: an exit reported during our own disconnect (a TTL,
   * a cancel) is the end we caused, not the program's.
   */
  programExited(): void {
    if (this.state === "exited" || this.state === "ended" || this.terminating) return;
    if (this.exitCode === undefined && this.exitSignal === undefined && this.seenExit) {
      // The adapter said nothing (delve while paused): how the process ended, as it was seen.
      if ("signal" in this.seenExit) this.exitSignal = signalNamed(this.seenExit.signal);
      else this.exitCode = this.seenExit.code;
    }
    this.invalidate();
    this.state = "exited";
    this.settle({ kind: "exited", exitCode: this.exitCode, signal: this.exitSignal });
    void this.terminate(() => this.exitText());
  }

  /**
   * "the program exited with code 0" (or "was killed by signal SIGSEGV (11)"), and what it left
   * running that the session's end ended.
   */
  exitText(): string {
    const left =
      this.leftBehind > 0
        ? ` (it left ${this.leftBehind} ${countNoun(this.leftBehind, "background processes")} running, ended with the session)`
        : "";
    return `the program ${exitPhrase({ exitCode: this.exitCode, signal: this.exitSignal })}${left}`;
  }

  /**
   * The signal an exit code stands for (see `exitSignal`), else the signal the debuggee process
   * was seen to die of, looked at now if it was not seen yet.
   */
  signalOfExit(exitCode: number): ExitSignal | undefined {
    const known = exitSignal(this.adapterId, exitCode, this.lastStop, this.state === "stopped");
    if (known) return known;
    // A pid reused since it was learnt is another process: its status is not the program's.
    for (const pid of this.debuggeePids)
      if (startTime(pid) === this.pidStarts.get(pid)) this.seenExit ??= zombieExit(pid);
    return this.seenExit && "signal" in this.seenExit ? signalNamed(this.seenExit.signal) : undefined;
  }

  /** True while an exit the adapter reports is the program's own, not one our disconnect caused. */
  exitIsTheProgramsOwn(): boolean {
    return !this.terminating || this.state === "exited";
  }

  /** Ends the session once (see {@link shutdown}); idempotent, never throws. */
  terminate(reason: string | (() => string)): Promise<void> {
    this.endingReason ??= reason;
    this.terminating ??= shutdown(this, reason);
    return this.terminating;
  }

  /** The adapter sent `initialized`: the waits for it go on (see {@link whenInitialized}). */
  markInitialized(): void {
    this.initializedSeen = true;
    for (const waiter of this.initializedWaiters.splice(0)) waiter();
  }

  whenInitialized(callback: () => void): void {
    if (this.initializedSeen) callback();
    else this.initializedWaiters.push(callback);
  }

  settle(outcome: Outcome): void {
    for (const waiter of this.waiters.splice(0)) waiter(outcome);
  }

  invalidate(): void {
    this.validFrames = new Set();
    this.framesByPlace = new Map();
    this.adapterFrames = new Map();
    this.adapterReferences = new Map();
    this.scopeFrames = new Map();
    this.scopesFrame = undefined;
    this.listedThreads = new Set();
    this.stopPage = undefined;
    this.validReferences = new Set();
    this.childCounts = new Map();
    this.alsoStopped = new Map();
    forgetSourceLines();
  }

  /** The current stop's ids and references, to give back with {@link restoreStop}. */
  snapshotStop(): StopSnapshot {
    return {
      validFrames: this.validFrames,
      listedThreads: this.listedThreads,
      stopPage: this.stopPage,
      validReferences: this.validReferences,
      childCounts: this.childCounts,
      alsoStopped: this.alsoStopped,
      framesByPlace: this.framesByPlace,
      adapterFrames: this.adapterFrames,
      adapterReferences: this.adapterReferences,
      scopeFrames: this.scopeFrames,
      scopesFrame: this.scopesFrame,
    };
  }

  /** Back to a stop the program never left (a resume the adapter refused), with its ids valid again. */
  restoreStop(snapshot: StopSnapshot): void {
    this.state = "stopped";
    this.validFrames = snapshot.validFrames;
    this.listedThreads = snapshot.listedThreads;
    this.stopPage = snapshot.stopPage;
    this.validReferences = snapshot.validReferences;
    this.childCounts = snapshot.childCounts;
    this.alsoStopped = snapshot.alsoStopped;
    this.framesByPlace = snapshot.framesByPlace;
    this.adapterFrames = snapshot.adapterFrames;
    this.adapterReferences = snapshot.adapterReferences;
    this.scopeFrames = snapshot.scopeFrames;
    this.scopesFrame = snapshot.scopesFrame;
  }

  /**
   * Makes a reference valid for the current stop, with the child counts the adapter gave for it;
   * the holder comes back with the reference to show: the tool's own for the adapters that
   * number references from the same start at every stop (see {@link renumbersIds}), `known`
   * when given (one the tool showed for the same thing in this stop), else a new one.
   */
  learnReference<
    T extends { variablesReference: number; indexedVariables?: number; namedVariables?: number },
  >(holder: T, known?: number): T {
    let reference = holder.variablesReference;
    if (reference <= 0) return holder;
    if (renumbersIds(this.adapterId)) {
      const own = known ?? this.nextReference++;
      this.adapterReferences.set(own, reference);
      reference = own;
    }
    this.validReferences.add(reference);
    if (holder.indexedVariables !== undefined || holder.namedVariables !== undefined)
      this.childCounts.set(reference, { indexed: holder.indexedVariables, named: holder.namedVariables });
    else this.childCounts.delete(reference);
    return reference === holder.variablesReference ? holder : { ...holder, variablesReference: reference };
  }

  /** The adapter's reference of one the tool showed (itself, for adapters whose references are shown). */
  adapterReference(reference: number): number {
    return this.adapterReferences.get(reference) ?? reference;
  }

  /**
   * Waits for the next stop, the exit, the end of the session, or `ms`: counted from the call,
   * or from when `from` settles (the wait itself starts at the call either way).
   */
  waitOutcome(ms: number, from?: Promise<unknown>): Promise<Outcome> {
    if (this.state === "stopped" && this.lastStop)
      return Promise.resolve({ kind: "stopped", stop: this.lastStop });
    if (this.state === "exited") {
      return (this.terminating ?? Promise.resolve()).then((): Outcome => ({
        kind: "exited",
        exitCode: this.exitCode,
        signal: this.exitSignal,
        leftBehind: this.leftBehind,
      }));
    }
    if (this.state === "ended") return Promise.resolve({ kind: "ended", reason: this.endReason ?? "ended" });
    return this.nextOutcome(ms, from);
  }

  async nextOutcome(ms: number, from?: Promise<unknown>): Promise<Outcome> {
    const outcome = await this.rawOutcome(ms, from);
    // An exit ends the session: let the clean-up finish so the next call sees no session.
    if (outcome.kind === "exited" && this.terminating) {
      await this.terminating;
      return {
        kind: "exited",
        exitCode: this.exitCode,
        signal: this.exitSignal,
        leftBehind: this.leftBehind,
      };
    }
    return outcome;
  }

  /**
   * The next outcome or a timeout after `ms` (from the call, or from when `from` settles), as it
   * comes (an exit not waited to the end of the session).
   */
  rawOutcome(ms: number, from?: Promise<unknown>): Promise<Outcome> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle: Waiter = (outcome) => {
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const arm = () => {
        if (settled) return;
        timer = setTimeout(() => {
          this.waiters = this.waiters.filter((waiter) => waiter !== settle);
          settle({ kind: "timeout" });
        }, ms);
      };
      this.waiters.push(settle);
      if (from) from.then(arm, arm);
      else arm();
    });
  }

  /**
   * A request to the adapter; a refusal becomes a DebugError the model can read, and `signal`
   * gives it up (see `adapterRequest`).
   */
  request<R extends DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = 10_000,
    signal?: AbortSignal,
  ): Promise<R> {
    return adapterRequest<R>(this, command, args, timeoutMs, signal);
  }

  assertLive(): void {
    if (this.state === "ended") {
      throw new DebugError(
        "DEBUG_SESSION_ENDED",
        `the debug session has ended (${this.endReason ?? "unknown reason"}); launch or attach again`,
      );
    }
  }

  assertStopped(what: string): void {
    this.assertLive();
    if (this.state === "stopped") return;
    if (this.state === "exited") {
      // Nothing to pause: the program is gone, and the session ends with it.
      const how = this.exitSignal
        ? exitPhrase({ exitCode: this.exitCode, signal: this.exitSignal })
        : `has exited${this.exitCode === undefined ? "" : ` with code ${this.exitCode}`}`;
      throw new DebugError(
        "DEBUG_NOT_STOPPED",
        `${what} needs a stopped program, but the program ${how}; the session is ending: launch again to debug it again`,
      );
    }
    throw new DebugError(
      "DEBUG_NOT_STOPPED",
      `${what} needs a stopped program, but the program is ${this.state}; use op 'pause' (or wait for a breakpoint) first`,
    );
  }
}
