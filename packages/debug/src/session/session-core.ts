import type { DebugProtocol } from "@vscode/debugprotocol";
import { countNoun } from "@tools/registry";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { DapRequestError } from "../dap/dap-connection.js";
import { DebugError } from "../errors/debug-error.js";
import { descendants, isAlive, startTime, zombieExit } from "../internal/process-tree.js";
import { withoutAdapterFrames } from "./adapter-frames.js";
import type { BreakpointStore } from "./breakpoint-store.js";
import { watchDebuggee } from "./debuggee-watch.js";
import { exitPhrase, exitSignal, signalNamed, type ExitSignal } from "./exit-signal.js";
import { configure } from "./handshake.js";
import { OutputRing } from "./output-ring.js";
import { shutdown } from "./shutdown.js";
import { forgetSourceLines } from "./source-lines.js";

/** Where the session is. `exited`: the program ended; `ended`: the session is over. */
export type SessionState = "starting" | "running" | "stopped" | "exited" | "ended";

/** The last stop, normalised across adapters; the reason is never dropped. */
export interface StopInfo {
  readonly reason: string;
  readonly description: string | undefined;
  readonly text: string | undefined;
  readonly threadId: number | undefined;
  readonly hitBreakpointIds: readonly number[];
  /**
   * The adapter sent it with `preserveFocusHint`: one of several threads stopped at once, not
   * the one the stop is about (lldb-dap sends a `stopped` event for every thread with a reason).
   */
  readonly secondary?: boolean;
}

/** How a resume, a pause or the launch came back. */
export type Outcome =
  | { readonly kind: "stopped"; readonly stop: StopInfo }
  | {
      readonly kind: "exited";
      readonly exitCode: number | undefined;
      /** The signal that killed the program, where the adapter's exit code is known to mean one. */
      readonly signal?: ExitSignal;
      /** Background processes the program left running, ended with the session (once it has ended). */
      readonly leftBehind?: number;
    }
  | { readonly kind: "ended"; readonly reason: string }
  | { readonly kind: "timeout" };

/** What a session is built from. */
export interface SessionOptions {
  readonly adapterId: AdapterId;
  /** One line: "debugpy: app.py a b" — the running session's description in a rejection. */
  readonly description: string;
  readonly root: string;
  readonly adapter: AdapterProcess;
  readonly breakpoints: BreakpointStore;
  /** How long continue / steps / pause wait for the next stop before saying "still running". */
  readonly resumeWaitMs: number;
  /** `disconnect.terminateDebuggee`: true for launch, false for attach. */
  readonly terminateDebuggee: boolean;
  /** Expression context: lldb needs `watch` (in `repl` names clash with LLDB commands). */
  readonly evaluateContext: string;
  /** False for adapters that never exit on disconnect (debugpy): no wait for it. */
  readonly exitsOnDisconnect?: boolean;
  /** Temporary files and folders removed when the session ends (delve's build output). */
  readonly cleanupPaths?: readonly string[];
  /** Output the adapter process writes for the debuggee (delve) is pushed into this ring. */
  readonly output?: OutputRing;
}

type Waiter = (outcome: Outcome) => void;

/** How long a refused request waits for the adapter to report the exit of a program that is gone, in ms. */
const exitReportMs = 3000;

/** What {@link SessionCore.invalidate} drops: the ids and references of one stop. */
export interface StopSnapshot {
  readonly validFrames: Set<number>;
  readonly listedThreads: Set<number>;
  readonly validReferences: Set<number>;
  readonly childCounts: Map<number, ChildCount>;
  readonly alsoStopped: Map<number, StopInfo>;
  readonly framesByPlace: Map<string, number>;
  readonly adapterFrames: Map<number, number>;
  readonly adapterReferences: Map<number, number>;
  readonly scopeFrames: Map<number, ScopeOrigin>;
  readonly scopesFrame: number | undefined;
}

/** Where a scope's reference came from: the adapter's frame id and the scope's name. */
export interface ScopeOrigin {
  readonly frame: number;
  readonly name: string;
}

/**
 * The adapters whose frame ids and references cannot be shown as they are: delve numbers a
 * stop's frames anew at every listing, and frames and references from 1000 again at every stop;
 * lldb-dap numbers frames by their place in the stack (thread and depth) and references from the
 * same start at every stop. An id from an earlier stop would name something of the current one.
 * They get the tool's own ids instead, counted over the whole session, never reused.
 */
export function renumbersIds(adapterId: AdapterId): boolean {
  return adapterId === "delve" || adapterId === "lldb";
}

/** A reference's children as the adapter counts them (`indexedVariables`, `namedVariables`). */
export interface ChildCount {
  readonly indexed: number | undefined;
  readonly named: number | undefined;
}

/**
 * The state every part of a session shares (not public: {@link DebugSession} is the face): our
 * own stopped/running state fed by the adapter's events, the waits for the next outcome, the
 * references valid for the current stop, and requests that turn refusals into DebugErrors.
 * The handshake, inspection, stepping and shutdown live in their own modules and work on it.
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
  /** The threads whose frames a `stack` page listed in the current stop. */
  listedThreads = new Set<number>();
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
    options.adapter.connection.onEvent((event) => this.onEvent(event));
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
  private signalOfExit(exitCode: number): ExitSignal | undefined {
    const known = exitSignal(this.adapterId, exitCode, this.lastStop, this.state === "stopped");
    if (known) return known;
    // A pid reused since it was learnt is another process: its status is not the program's.
    for (const pid of this.debuggeePids)
      if (startTime(pid) === this.pidStarts.get(pid)) this.seenExit ??= zombieExit(pid);
    return this.seenExit && "signal" in this.seenExit ? signalNamed(this.seenExit.signal) : undefined;
  }

  /** True while an exit the adapter reports is the program's own, not one our disconnect caused. */
  private exitIsTheProgramsOwn(): boolean {
    return !this.terminating || this.state === "exited";
  }

  /** Ends the session once (see {@link shutdown}); idempotent, never throws. */
  terminate(reason: string | (() => string)): Promise<void> {
    this.terminating ??= shutdown(this, reason);
    return this.terminating;
  }

  whenInitialized(callback: () => void): void {
    if (this.initializedSeen) callback();
    else this.initializedWaiters.push(callback);
  }

  private onEvent(event: DebugProtocol.Event): void {
    switch (event.event) {
      case "initialized": {
        this.initializedSeen = true;
        for (const waiter of this.initializedWaiters.splice(0)) waiter();
        // An adapter that asks again (a restart inside the adapter) gets the breakpoints again.
        if (this.configured) void configure(this).catch(() => undefined);
        break;
      }
      case "output": {
        const body = (event as DebugProtocol.OutputEvent).body;
        if (body.category === "telemetry") break;
        // delve sends no `exited` event (and says it after `terminated`); its console line has the code.
        const status = /has exited with status (-?\d+)/.exec(body.output);
        if (status && this.exitCode === undefined && this.exitIsTheProgramsOwn()) {
          this.exitCode = Number(status[1]);
          this.exitSignal ??= this.signalOfExit(this.exitCode);
        }
        // After disconnect only the adapter's own noise comes (lldb-dap-19 aborts at exit).
        if (!this.terminating) this.output.push(body.category ?? "console", body.output);
        break;
      }
      case "process": {
        const pid = (event as DebugProtocol.ProcessEvent).body.systemProcessId;
        if (pid) this.learnDebuggee(pid);
        break;
      }
      case "stopped": {
        const body = (event as DebugProtocol.StoppedEvent).body;
        // lldb-dap stops a paused program with SIGSTOP and reports that as an exception.
        const paused =
          this.pauseRequested &&
          body.reason === "exception" &&
          /\bSIGSTOP\b/.test(`${body.description ?? ""} ${body.text ?? ""}`);
        this.pauseRequested = false;
        const stop: StopInfo = {
          reason: paused ? "pause" : body.reason,
          description: paused ? undefined : body.description,
          text: paused ? undefined : body.text,
          threadId: body.threadId ?? this.lastStop?.threadId,
          hitBreakpointIds: body.hitBreakpointIds ?? [],
          secondary: body.preserveFocusHint === true,
        };
        // Another thread's event of the same stop (nothing resumed since): lldb-dap sends one
        // per thread with a reason, the thread it focuses not necessarily first. It joins the
        // stop; it replaces the reported one only when it is the focus and that one was not.
        const current = this.lastStop;
        if (
          this.state === "stopped" &&
          current &&
          stop.threadId !== undefined &&
          current.threadId !== undefined &&
          stop.threadId !== current.threadId
        ) {
          if (current.secondary && !stop.secondary) {
            this.alsoStopped.set(current.threadId, current);
            this.alsoStopped.delete(stop.threadId);
            this.lastStop = stop;
          } else {
            this.alsoStopped.set(stop.threadId, stop);
          }
          break;
        }
        this.invalidate();
        this.state = "stopped";
        this.lastStop = stop;
        this.settle({ kind: "stopped", stop: this.lastStop });
        break;
      }
      case "continued": {
        if (this.state === "stopped") {
          this.invalidate();
          this.state = "running";
        }
        break;
      }
      case "exited": {
        if (this.exitIsTheProgramsOwn()) {
          this.exitCode = (event as DebugProtocol.ExitedEvent).body.exitCode;
          this.exitSignal = this.signalOfExit(this.exitCode);
        }
        break;
      }
      case "terminated": {
        this.programExited();
        break;
      }
      case "breakpoint": {
        const { breakpoint } = (event as DebugProtocol.BreakpointEvent).body;
        if (breakpoint.id !== undefined) {
          this.options.breakpoints.update(breakpoint.id, {
            line: breakpoint.line,
            verified: breakpoint.verified,
            message: breakpoint.message,
          });
        }
        break;
      }
      default:
        break;
    }
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

  /** Waits for the next stop, the exit, the end of the session, or `ms`. */
  waitOutcome(ms: number): Promise<Outcome> {
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
    return this.nextOutcome(ms);
  }

  async nextOutcome(ms: number): Promise<Outcome> {
    const outcome = await this.rawOutcome(ms);
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

  private rawOutcome(ms: number): Promise<Outcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== settle);
        resolve({ kind: "timeout" });
      }, ms);
      const settle: Waiter = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      this.waiters.push(settle);
    });
  }

  /** A request to the adapter; a refusal becomes a DebugError the model can read. */
  async request<R extends DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = 10_000,
  ): Promise<R> {
    this.assertLive();
    try {
      return await this.options.adapter.connection.request<R>(command, args, timeoutMs);
    } catch (error) {
      if (error instanceof DapRequestError && error.kind === "timeout") {
        const within = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
        throw new DebugError(
          "DEBUG_TIMEOUT",
          command === "evaluate"
            ? `evaluate timed out: no answer within ${within}. The expression may still be running in the program, ` +
                "and the next request may wait until it ends; op 'terminate' ends the session if it never does"
            : `${command} timed out: the adapter gave no answer within ${within}; op 'terminate' ends the session if it stays unresponsive`,
          { cause: error },
        );
      }
      if (error instanceof DapRequestError) {
        // The program ended while the request ran (an evaluate calling os._exit): the refusal is
        // that end ("No more messages"), said as such.
        if (await this.endedMeanwhile()) {
          throw new DebugError(
            "DEBUG_SESSION_ENDED",
            `${this.exitText()} during ${command}, so ${command} has no answer; the session ends with it: launch again to debug it again`,
            { cause: error },
          );
        }
        throw new DebugError(
          "DEBUG_ADAPTER_ERROR",
          `the adapter refused ${command}: ${withoutAdapterFrames(error.message)}`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /**
   * True when the program has ended: it is reported so, or no debuggee process learnt is alive
   * any more, and then the adapter's report of the exit (with its code) is waited for, at most
   * {@link exitReportMs}, ending the session without it if it does not come.
   */
  private async endedMeanwhile(): Promise<boolean> {
    if (this.programOver()) return true;
    const pids = [...this.debuggeePids];
    const same = (pid: number): boolean => {
      const started = this.pidStarts.get(pid);
      return started === undefined || startTime(pid) === started;
    };
    if (pids.length === 0 || pids.some((pid) => same(pid) && isAlive(pid))) return false;
    if (this.state === "stopped" || this.state === "running") {
      const outcome = await this.rawOutcome(exitReportMs);
      if (outcome.kind === "timeout") this.programExited();
    }
    return this.programOver();
  }

  /** The program has exited (the session may still be ending) or the session has ended. */
  private programOver(): boolean {
    return this.state === "exited" || this.state === "ended";
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
