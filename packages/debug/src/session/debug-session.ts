import { rmSync } from "node:fs";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterProcess } from "../adapters/adapter-process.js";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { DapRequestError } from "../dap/dap-connection.js";
import { DebugError } from "../errors/debug-error.js";
import { descendants, isAlive, signalPid, waitGone } from "../internal/process-tree.js";
import type { BreakpointResult, BreakpointStore } from "./breakpoint-store.js";
import { clipValue, limits } from "./limits.js";
import { OutputRing } from "./output-ring.js";
import { displayPath, forgetSourceLines, sourceLine } from "./source-lines.js";

/** Where the session is. `exited`: the program ended; `ended`: the session is over. */
export type SessionState = "starting" | "running" | "stopped" | "exited" | "ended";

/** The last stop, normalised across adapters; the reason is never dropped. */
export interface StopInfo {
  readonly reason: string;
  readonly description: string | undefined;
  readonly text: string | undefined;
  readonly threadId: number | undefined;
  readonly hitBreakpointIds: readonly number[];
}

/** How a resume, a pause or the launch came back. */
export type Outcome =
  | { readonly kind: "stopped"; readonly stop: StopInfo }
  | { readonly kind: "exited"; readonly exitCode: number | undefined }
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

/**
 * One debug session: the handshake, our own stopped/running state, stop normalisation, the
 * inspection requests (answered only while stopped, with references valid for the current stop
 * only), and a terminate that leaves no process or file behind.
 */
export class DebugSession {
  readonly adapterId: AdapterId;
  readonly description: string;
  readonly startedAt = Date.now();
  readonly output: OutputRing;
  state: SessionState = "starting";
  lastStop: StopInfo | undefined;
  exitCode: number | undefined;
  endReason: string | undefined;
  capabilities: DebugProtocol.Capabilities = {};
  /** Debuggee pids learnt from `process` events. */
  readonly debuggeePids = new Set<number>();

  private readonly options: SessionOptions;
  private waiters: Waiter[] = [];
  private initializedSeen = false;
  private initializedWaiters: Array<() => void> = [];
  private configured = false;
  private validFrames = new Set<number>();
  private validReferences = new Set<number>();
  private terminating: Promise<void> | undefined;
  private readonly knownPids = new Set<number>();
  private readonly endListeners: Array<(reason: string) => void> = [];

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
      const reason =
        this.state === "exited"
          ? `the program exited${this.exitCode === undefined ? "" : ` with code ${this.exitCode}`}`
          : `the debug adapter exited unexpectedly (${how})${tail ? `: ${tail}` : ""}`;
      void this.terminate(reason);
    });
  }

  /**
   * Remembers the adapter's process tree (launchers, debuggees): if the adapter dies, its
   * children are reparented and can no longer be found from it.
   */
  private rememberTree(): void {
    const pid = this.options.adapter.child?.pid;
    if (pid) for (const child of descendants(pid)) this.knownPids.add(child);
  }

  /** Pid of the process we spawned (the adapter, or the reaper shim above it), if any. */
  get spawnedPid(): number | undefined {
    return this.options.adapter.child?.pid;
  }

  /** Pid of the adapter process itself, while it runs (undefined for a direct TCP attach). */
  get adapterPid(): number | undefined {
    return this.options.adapter.adapterPid();
  }

  /** Called once with the reason when the session ends. */
  onEnd(listener: (reason: string) => void): void {
    if (this.endReason !== undefined) listener(this.endReason);
    else this.endListeners.push(listener);
  }

  /**
   * The handshake that works with every adapter: initialize → launch/attach (not awaited) →
   * `initialized` → breakpoints → configurationDone → the launch response; then the first stop,
   * the exit, or `firstStopMs` passes.
   */
  async start(
    request: "launch" | "attach",
    args: Record<string, unknown>,
    timeouts: { initializeMs: number; launchMs: number; firstStopMs: number },
  ): Promise<Outcome> {
    const { connection } = this.options.adapter;
    try {
      const init = await connection.request<DebugProtocol.InitializeResponse>(
        "initialize",
        {
          clientID: "tools-debug",
          clientName: "@tools/debug",
          adapterID: this.adapterId,
          pathFormat: "path",
          linesStartAt1: true,
          columnsStartAt1: true,
          supportsVariableType: true,
          supportsRunInTerminalRequest: false,
          supportsStartDebuggingRequest: false,
          locale: "en",
        } satisfies DebugProtocol.InitializeRequestArguments,
        timeouts.initializeMs,
      );
      this.capabilities = init.body ?? {};
      const launched = connection.request(request, args, timeouts.launchMs);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the adapter sent no 'initialized' event within ${timeouts.launchMs} ms`)),
          timeouts.launchMs,
        );
        this.whenInitialized(() => {
          clearTimeout(timer);
          resolve();
        });
        launched.catch((error: unknown) => {
          clearTimeout(timer);
          reject(error as Error);
        });
      });
      await this.configure();
      if (this.capabilities.supportsConfigurationDoneRequest !== false) {
        await connection.request("configurationDone", {}, timeouts.initializeMs);
      }
      await launched;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const recent = this.output.tail(1500).trim() || this.options.adapter.stderrTail().trim().slice(-1500);
      await this.terminate(`${request} failed: ${message}`);
      throw new DebugError(
        "DEBUG_LAUNCH_FAILED",
        `${request} of ${this.description} failed: ${message}` +
          (recent ? `\nrecent output:\n${recent}` : "\n(the program wrote no output)"),
        { cause: error },
      );
    }
    if (this.state === "starting") this.state = "running";
    this.rememberTree();
    const outcome = await this.waitOutcome(timeouts.firstStopMs);
    this.rememberTree();
    return outcome;
  }

  /** Sends one file's breakpoints (the session is configured) and stores the answer. */
  async sendBreakpoints(file: string): Promise<BreakpointResult[]> {
    const entry = this.options.breakpoints.files.get(file);
    const lines = entry?.lines ?? [];
    const response = await this.request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
      source: { path: file },
      breakpoints: lines.map((line) => ({ line })),
      lines: [...lines],
    } satisfies DebugProtocol.SetBreakpointsArguments);
    const answered = response.body?.breakpoints ?? [];
    const results = lines.map((requested, index): BreakpointResult => {
      const breakpoint = answered[index];
      return {
        requested,
        line: breakpoint?.line,
        verified: breakpoint?.verified ?? false,
        message: breakpoint?.message,
        id: breakpoint?.id,
      };
    });
    return this.options.breakpoints.store(file, results);
  }

  /** True once configurationDone was sent: breakpoints go to the adapter at once. */
  get isConfigured(): boolean {
    return this.configured && this.state !== "ended" && this.state !== "exited";
  }

  private async configure(): Promise<void> {
    // Sent back to back and awaited together: one round trip instead of one per file.
    const files = [...this.options.breakpoints.files.keys()].map((file) =>
      this.sendBreakpoints(file).catch((error: unknown) => {
        const entry = this.options.breakpoints.files.get(file);
        if (!entry) return;
        const message = error instanceof Error ? error.message : String(error);
        entry.results = entry.lines.map((requested) => ({
          requested,
          line: undefined,
          verified: false,
          message,
          id: undefined,
        }));
      }),
    );
    const filters = this.capabilities.exceptionBreakpointFilters;
    // Uncaught exceptions stop the program with its stack alive (plus whatever the adapter enables by default).
    const exceptions =
      filters && filters.length > 0
        ? this.request("setExceptionBreakpoints", {
            filters: filters
              .filter((filter) => filter.default === true || filter.filter === "uncaught")
              .map((filter) => filter.filter),
          })
        : Promise.resolve();
    await Promise.all([...files, exceptions]);
    this.configured = true;
  }

  private whenInitialized(callback: () => void): void {
    if (this.initializedSeen) callback();
    else this.initializedWaiters.push(callback);
  }

  private onEvent(event: DebugProtocol.Event): void {
    switch (event.event) {
      case "initialized": {
        this.initializedSeen = true;
        for (const waiter of this.initializedWaiters.splice(0)) waiter();
        // An adapter that asks again (a restart inside the adapter) gets the breakpoints again.
        if (this.configured) void this.configure().catch(() => undefined);
        break;
      }
      case "output": {
        const body = (event as DebugProtocol.OutputEvent).body;
        if (body.category === "telemetry") break;
        // delve sends no `exited` event (and says it after `terminated`); its console line has the code.
        const status = /has exited with status (-?\d+)/.exec(body.output);
        if (status && this.exitCode === undefined) this.exitCode = Number(status[1]);
        // After disconnect only the adapter's own noise comes (lldb-dap-19 aborts at exit).
        if (!this.terminating) this.output.push(body.category ?? "console", body.output);
        break;
      }
      case "process": {
        const pid = (event as DebugProtocol.ProcessEvent).body.systemProcessId;
        if (pid) this.debuggeePids.add(pid);
        break;
      }
      case "stopped": {
        const body = (event as DebugProtocol.StoppedEvent).body;
        this.invalidate();
        this.state = "stopped";
        this.lastStop = {
          reason: body.reason,
          description: body.description,
          text: body.text,
          threadId: body.threadId ?? this.lastStop?.threadId,
          hitBreakpointIds: body.hitBreakpointIds ?? [],
        };
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
        this.exitCode = (event as DebugProtocol.ExitedEvent).body.exitCode;
        break;
      }
      case "terminated": {
        if (this.state === "exited" || this.state === "ended") break;
        this.invalidate();
        this.state = "exited";
        this.settle({ kind: "exited", exitCode: this.exitCode });
        // The program is gone: end the session so the adapter does not linger (debugpy never exits).
        void this.terminate(
          () => `the program exited${this.exitCode === undefined ? "" : ` with code ${this.exitCode}`}`,
        );
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

  private settle(outcome: Outcome): void {
    for (const waiter of this.waiters.splice(0)) waiter(outcome);
  }

  private invalidate(): void {
    this.validFrames = new Set();
    this.validReferences = new Set();
    forgetSourceLines();
  }

  /** Waits for the next stop, the exit, the end of the session, or `ms`. */
  private waitOutcome(ms: number): Promise<Outcome> {
    if (this.state === "stopped" && this.lastStop)
      return Promise.resolve({ kind: "stopped", stop: this.lastStop });
    if (this.state === "exited") {
      const exited: Outcome = { kind: "exited", exitCode: this.exitCode };
      return (this.terminating ?? Promise.resolve()).then(() => ({ ...exited, exitCode: this.exitCode }));
    }
    if (this.state === "ended") return Promise.resolve({ kind: "ended", reason: this.endReason ?? "ended" });
    return this.nextOutcome(ms);
  }

  private async nextOutcome(ms: number): Promise<Outcome> {
    const outcome = await this.rawOutcome(ms);
    // An exit ends the session: let the clean-up finish so the next call sees no session.
    if (outcome.kind === "exited" && this.terminating) {
      await this.terminating;
      return { kind: "exited", exitCode: this.exitCode };
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
      if (error instanceof DapRequestError) {
        throw new DebugError("DEBUG_ADAPTER_ERROR", `the adapter refused ${command}: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  private assertLive(): void {
    if (this.state === "ended") {
      throw new DebugError(
        "DEBUG_SESSION_ENDED",
        `the debug session has ended (${this.endReason ?? "unknown reason"}); launch or attach again`,
      );
    }
  }

  private assertStopped(what: string): void {
    this.assertLive();
    if (this.state === "stopped") return;
    const where =
      this.state === "exited"
        ? `the program has exited${this.exitCode === undefined ? "" : ` with code ${this.exitCode}`}`
        : `the program is ${this.state}`;
    throw new DebugError(
      "DEBUG_NOT_STOPPED",
      `${what} needs a stopped program, but ${where}; use op 'pause' (or wait for a breakpoint) first`,
    );
  }

  private async defaultThread(threadId: number | undefined): Promise<number> {
    if (threadId !== undefined) return threadId;
    if (this.lastStop?.threadId !== undefined) return this.lastStop.threadId;
    const threads = await this.threads();
    const first = threads.find((thread) => thread.id > 0) ?? threads[0];
    if (!first) throw new DebugError("DEBUG_ADAPTER_ERROR", "the adapter reports no threads");
    return first.id;
  }

  /** Thread ids and names. */
  async threads(): Promise<DebugProtocol.Thread[]> {
    const response = await this.request<DebugProtocol.ThreadsResponse>("threads");
    return response.body?.threads ?? [];
  }

  /** Frames of a thread (at most {@link limits.frames}); their ids are valid until the next resume. */
  async stack(
    threadId?: number,
  ): Promise<{ threadId: number; frames: DebugProtocol.StackFrame[]; total: number | undefined }> {
    this.assertStopped("stack");
    const thread = await this.defaultThread(threadId);
    const response = await this.request<DebugProtocol.StackTraceResponse>("stackTrace", {
      threadId: thread,
      startFrame: 0,
      levels: limits.frames,
    });
    const frames = (response.body?.stackFrames ?? []).slice(0, limits.frames);
    for (const frame of frames) this.validFrames.add(frame.id);
    return { threadId: thread, frames, total: response.body?.totalFrames };
  }

  /** Scopes of a frame from the current stop. */
  async scopes(frameId: number): Promise<DebugProtocol.Scope[]> {
    this.assertStopped("scopes");
    this.checkFrame(frameId);
    const response = await this.request<DebugProtocol.ScopesResponse>("scopes", { frameId });
    const scopes = response.body?.scopes ?? [];
    for (const scope of scopes)
      if (scope.variablesReference > 0) this.validReferences.add(scope.variablesReference);
    return scopes;
  }

  /** Children of a reference (at most {@link limits.variables}, values clipped). */
  async variables(reference: number): Promise<{ variables: DebugProtocol.Variable[]; omitted: number }> {
    this.assertStopped("variables");
    if (!this.validReferences.has(reference)) {
      throw new DebugError(
        "DEBUG_STALE_REFERENCE",
        `reference ${reference} is not from the current stop (references are valid only until the program resumes); ` +
          "get fresh ones with op 'scopes' (or 'evaluate')",
      );
    }
    const response = await this.request<DebugProtocol.VariablesResponse>("variables", {
      variablesReference: reference,
    });
    const all = (response.body?.variables ?? []).filter((variable) => !hiddenVariable(variable.name));
    const kept = all
      .slice(0, limits.variables)
      .map((variable) => ({ ...variable, value: clipValue(variable.value) }));
    for (const variable of kept)
      if (variable.variablesReference > 0) this.validReferences.add(variable.variablesReference);
    return { variables: kept, omitted: all.length - kept.length };
  }

  /** Evaluates in a frame of the current stop (default: the top frame with source). */
  async evaluate(expression: string, frameId?: number): Promise<DebugProtocol.EvaluateResponse["body"]> {
    this.assertStopped("evaluate");
    let frame = frameId;
    if (frame === undefined) {
      const { frames } = await this.stack();
      frame = (frames.find((candidate) => candidate.source?.path) ?? frames[0])?.id;
    } else this.checkFrame(frame);
    const response = await this.request<DebugProtocol.EvaluateResponse>("evaluate", {
      expression,
      frameId: frame,
      context: this.options.evaluateContext,
    });
    const body = response.body;
    if (body.variablesReference > 0) this.validReferences.add(body.variablesReference);
    return { ...body, result: clipValue(body.result) };
  }

  private checkFrame(frameId: number): void {
    if (!this.validFrames.has(frameId)) {
      throw new DebugError(
        "DEBUG_STALE_REFERENCE",
        `frame ${frameId} is not from the current stop (frame ids are valid only until the program resumes); ` +
          "get fresh ones with op 'stack'",
      );
    }
  }

  /** continue / next / stepIn / stepOut: returns at the next stop, the exit, or the bound. */
  async resume(command: "continue" | "next" | "stepIn" | "stepOut", threadId?: number): Promise<Outcome> {
    this.assertStopped(command === "continue" ? "continue" : "a step");
    const thread = await this.defaultThread(threadId);
    this.invalidate();
    this.state = "running";
    const outcome = this.nextOutcome(this.options.resumeWaitMs);
    try {
      await this.request(command, { threadId: thread });
    } catch (error) {
      if (this.state === "running") this.state = "stopped";
      this.settle({ kind: "timeout" });
      throw error;
    }
    return outcome;
  }

  /** Pauses; idempotent: an already-stopped program is reported as such without asking. */
  async pause(threadId?: number): Promise<Outcome | { kind: "already"; stop: StopInfo | undefined }> {
    this.assertLive();
    if (this.state === "stopped") return { kind: "already", stop: this.lastStop };
    if (this.state === "exited") return { kind: "exited", exitCode: this.exitCode };
    const thread = threadId ?? this.lastStop?.threadId ?? (await this.threads())[0]?.id ?? 1;
    const outcome = this.nextOutcome(this.options.resumeWaitMs);
    await this.request("pause", { threadId: thread });
    return outcome;
  }

  /** Where a stop is: the first frame with a source, its line's text, and the exception if any. */
  async describeStop(stop: StopInfo): Promise<string> {
    const reason = stop.reason === "exception" ? "on an exception" : `(${stop.reason})`;
    let where = "";
    try {
      const { threadId, frames } = await this.stack(stop.threadId);
      const frame = frames.find((candidate) => candidate.source?.path) ?? frames[0];
      if (frame) {
        const path = frame.source?.path;
        const text = sourceLine(path, frame.line);
        where =
          ` in thread ${threadId} at ${displayPath(path, this.options.root)}:${frame.line} in ${frame.name} (frame ${frame.id})` +
          (text ? `\n  ${frame.line} | ${text}` : "");
      }
    } catch (error) {
      where = ` (location unavailable: ${error instanceof Error ? error.message : String(error)})`;
    }
    let detail = "";
    if (stop.reason === "exception") detail = await this.exceptionDetail(stop);
    else if (stop.description && stop.description !== stop.reason) detail = `\n  ${stop.description}`;
    return `stopped ${reason}${where}${detail}`;
  }

  private async exceptionDetail(stop: StopInfo): Promise<string> {
    const fallback = [stop.description, stop.text].filter(Boolean).join(": ");
    if (this.capabilities.supportsExceptionInfoRequest && stop.threadId !== undefined) {
      try {
        const info = await this.request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", {
          threadId: stop.threadId,
        });
        const text = [info.body.exceptionId, info.body.description].filter(Boolean).join(": ");
        return `\n  exception: ${clipValue(text || fallback)}`;
      } catch {
        // Fall back to what the stopped event said.
      }
    }
    return `\n  exception: ${clipValue(fallback || "(the adapter gave no details)")}`;
  }

  /**
   * Ends the session: disconnect (terminating a launched debuggee), a short wait, then SIGKILL
   * for whatever remains of the adapter's tree and the debuggee, and removal of temporary files.
   * Idempotent; never throws.
   */
  terminate(reason: string | (() => string)): Promise<void> {
    this.terminating ??= this.shutdown(reason);
    return this.terminating;
  }

  private async shutdown(why: string | (() => string)): Promise<void> {
    const { adapter } = this.options;
    const child = adapter.child;
    const exitedNow = (): boolean => !child || child.exitCode !== null || child.signalCode !== null;
    if (!adapter.connection.closed) {
      await adapter.connection
        .request("disconnect", { restart: false, terminateDebuggee: this.options.terminateDebuggee }, 2000)
        .catch(() => undefined);
    }
    if (child && !exitedNow() && this.options.exitsOnDisconnect !== false) {
      await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    }
    // Kill the deepest processes first, while their parents still live to reap them.
    const tree = child?.pid ? descendants(child.pid) : [];
    const owned = this.options.terminateDebuggee ? [...this.debuggeePids, ...this.knownPids] : [];
    const victims = [...new Set([...tree.reverse(), ...owned])].filter((pid) => isAlive(pid));
    // One at a time, deepest first, each reaped by its still-living parent (a launcher, the
    // adapter) before that parent dies: an unreaped child is reparented to PID 1 and, where
    // PID 1 does not reap (containers), stays a zombie for good.
    if (adapter.reaps) {
      // The shim reaps the whole tree: kill it all at once and let the shim exit.
      for (const pid of victims) signalPid(pid, "SIGKILL");
      if (child && !exitedNow())
        await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    } else {
      for (const pid of victims) {
        signalPid(pid, "SIGKILL");
        await waitGone([pid], 500, true);
      }
    }
    if (child?.pid && !exitedNow()) {
      signalPid(-child.pid, "SIGKILL");
      await Promise.race([adapter.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    }
    adapter.socket?.destroy();
    const reason = typeof why === "function" ? why() : why;
    adapter.connection.close(reason);
    for (const path of this.options.cleanupPaths ?? []) rmSync(path, { recursive: true, force: true });
    this.invalidate();
    this.state = "ended";
    this.endReason = reason;
    this.settle({ kind: "ended", reason });
    for (const listener of this.endListeners.splice(0)) listener(reason);
  }
}

function hiddenVariable(name: string): boolean {
  return (
    name === "special variables" ||
    name === "function variables" ||
    name === "class variables" ||
    name === "$__lldb_extensions"
  );
}
