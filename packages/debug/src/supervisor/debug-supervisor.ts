import { rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Run } from "@tools/registry";
import { rejectOnAbort, resourceKey } from "@tools/registry";
import { discardAdapter, type AdapterProcess } from "../adapters/adapter-process.js";
import {
  adapterForProgram,
  attachPlan,
  checkProgram,
  launchPlan,
  startDebugpyAdapter,
  type SessionPlan,
} from "../adapters/launch-plan.js";
import {
  adapterIds,
  detectAdapter,
  detectAdapters,
  likelyDebugpyPython,
  type AdapterId,
  type AdapterReport,
} from "../adapters/detect-adapter.js";
import { DebugError } from "../errors/debug-error.js";
import { shellWords } from "../internal/shell-quote.js";
import { BreakpointStore } from "../session/breakpoint-store.js";
import { DebugSession, type Outcome } from "../session/debug-session.js";
import type { OnOtherAdapter, Relabel } from "../session/handshake.js";
import { OutputRing } from "../session/output-ring.js";
import { displayPath } from "../session/source-lines.js";
import { formatDuration } from "./format-duration.js";

/** How long breakpoints set while the program runs wait for a stop at one after the adapter's answer, unless told. */
export const defaultBreakpointHitMs = 200;

/** Options of {@link createDebugSupervisor}. */
export interface DebugSupervisorOptions {
  /** Hard limit on a session's life, in ms; default 30 minutes. Then it is terminated. */
  ttlMs?: number;
  /** How long continue / steps / pause wait for the next stop, in ms; default 15 s. */
  resumeWaitMs?: number;
  /** How long launch waits for the first stop after the handshake, in ms; default 15 s. */
  firstStopMs?: number;
  /** Handshake bound (initialized event, launch response), in ms; default 30 s (delve: 120 s). */
  launchMs?: number;
  /**
   * How long breakpoints set while the program runs wait, once the adapter answered, for it to
   * stop at one (a line it runs all the time), so that their answer reports the stop, in ms;
   * default 200 ms. A stop after that is reported by the next call (status, continue, a step,
   * breakpoints).
   */
  breakpointHitMs?: number;
  /** The PATH adapters are searched on; default `process.env.PATH`. */
  searchPath?: string;
}

/** A conversation's debugging state: its session (if any), the last one, its breakpoints. */
export interface ConversationDebug {
  session: DebugSession | undefined;
  /** The session that ended last, kept for its output and the reason it ended. */
  last: DebugSession | undefined;
  readonly breakpoints: BreakpointStore;
}

/** What launch and attach return: the session and how its first wait came back. */
export interface SessionStart {
  readonly session: DebugSession;
  readonly outcome: Outcome;
  readonly warnings: readonly string[];
}

/**
 * Owns the debug sessions: one per conversation, each with a hard TTL, each owned by the run
 * that started it (its adapter dies with `run.dispose()`), and a second launch or attach
 * rejected with the running session's description.
 */
export class DebugSupervisor {
  readonly ttlMs: number;
  readonly resumeWaitMs: number;
  /** How long launch and attach wait for the first stop before saying "still running", in ms. */
  readonly firstStopMs: number;
  /** How long breakpoints set while the program runs wait for a stop at one after the adapter's answer, in ms. */
  readonly breakpointHitMs: number;
  private readonly launchMs: number;
  private readonly searchPath: string | undefined;
  private readonly conversations = new Map<string, ConversationDebug>();

  constructor(options: DebugSupervisorOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.resumeWaitMs = options.resumeWaitMs ?? 15_000;
    this.firstStopMs = options.firstStopMs ?? 15_000;
    this.launchMs = options.launchMs ?? 30_000;
    this.breakpointHitMs = options.breakpointHitMs ?? defaultBreakpointHitMs;
    this.searchPath = options.searchPath;
  }

  /** The conversation's state, created on first use. */
  conversation(conversationId: string): ConversationDebug {
    let state = this.conversations.get(conversationId);
    if (!state) {
      state = { session: undefined, last: undefined, breakpoints: new BreakpointStore() };
      this.conversations.set(conversationId, state);
    }
    return state;
  }

  /** Per adapter: root marker, binary, usable or why not. */
  adapters(root: string): Promise<AdapterReport[]> {
    return detectAdapters({ root, searchPath: this.searchPath });
  }

  /**
   * The live session of a conversation, or a DEBUG_NO_SESSION error that says why there is none:
   * also while its end runs (a cancelled launch, the TTL), unless the program exited (its ops
   * say so themselves).
   */
  require(conversationId: string): DebugSession {
    const state = this.conversation(conversationId);
    const ending = state.session && state.session.state !== "exited" ? state.session.ending : undefined;
    if (state.session && ending !== undefined) {
      throw new DebugError(
        "DEBUG_NO_SESSION",
        `no debug session is running: the last one (${state.session.description}) is ending because ${ending}; ` +
          "start one with op 'launch' or 'attach' (it waits for that end)",
      );
    }
    if (state.session) return state.session;
    const last = state.last;
    throw new DebugError(
      "DEBUG_NO_SESSION",
      last
        ? `no debug session is running: the last one (${last.description}) ended because ${last.endReason}; start one with op 'launch' or 'attach'`
        : "no debug session is running; start one with op 'launch' (program, args) or 'attach' (port)",
    );
  }

  /** Launches `program` under the adapter its extension (or `adapter`) calls for. */
  async launch(
    run: Run,
    request: { program: string; args: readonly string[]; adapter?: AdapterId },
    signal?: AbortSignal,
  ): Promise<SessionStart> {
    await this.whenFree(run.conversationId, signal);
    const id = request.adapter ?? adapterForProgram(request.program);
    const shown =
      request.program === run.workingDirectory ? "." : displayPath(request.program, run.workingDirectory);
    checkProgram(id, request.program, shown, request.adapter !== undefined);
    const where = {
      root: run.workingDirectory,
      start: isDirectory(request.program) ? request.program : dirname(request.program),
      searchPath: this.searchPath,
    };
    // debugpy: start the adapter with the python detection will most likely choose while
    // detection probes the interpreters; it is used only if detection agrees.
    const guess = id === "debugpy" ? likelyDebugpyPython(where) : undefined;
    let early: AdapterProcess | undefined = guess
      ? startDebugpyAdapter(guess, run.workingDirectory)
      : undefined;
    let plan: SessionPlan;
    let report: AdapterReport;
    try {
      report = await detectAdapter(id, where);
      if (!report.usable) {
        throw new DebugError(
          "DEBUG_ADAPTER_UNUSABLE",
          `cannot debug ${shown} with ${id}: ${report.why}; op 'adapters' shows what is usable here`,
        );
      }
      plan = launchPlan(report, request.program, request.args, run.workingDirectory, this.launchMs);
      if (early && report.binary === guess) {
        const started = early;
        plan = { ...plan, start: () => Promise.resolve(started), discard: () => discardAdapter(started) };
        early = undefined;
      }
    } finally {
      if (early) await discardAdapter(early);
    }
    // Quoted as a shell would take them: "a b" stays one argument in the description.
    const description = `${id}: ${shellWords([shown, ...request.args])}`;
    return this.startSession(run, id, description, plan, report.warnings, signal);
  }

  /** Attaches to a debuggee on a local port; the adapter is `adapter` or the one the root marker names. */
  async attach(
    run: Run,
    request: { port: number; adapter?: AdapterId },
    signal?: AbortSignal,
  ): Promise<SessionStart> {
    await this.whenFree(run.conversationId, signal);
    let id = request.adapter;
    const reports = await this.adapters(run.workingDirectory);
    if (!id) {
      const marked = reports.filter((report) => report.marker);
      if (marked.length !== 1) {
        throw new DebugError(
          "DEBUG_BAD_ARGUMENTS",
          `attach needs 'adapter' (one of ${adapterIds.join(", ")}): ` +
            (marked.length === 0
              ? "no root marker here names one"
              : `several root markers match (${marked.map((report) => report.id).join(", ")})`),
        );
      }
      id = marked[0]!.id;
    }
    const report = reports.find((candidate) => candidate.id === id)!;
    if (id === "lldb" && !report.binary) {
      throw new DebugError("DEBUG_ADAPTER_UNUSABLE", `cannot attach with lldb: ${report.binaryNote}`);
    }
    const plan = attachPlan(report, request.port, run.workingDirectory, this.launchMs);
    const warnings: string[] = [];
    const chosen = id;
    // The port tells which debugger serves it only once it answers `initialize`.
    const onOtherAdapter = (found: AdapterId): Relabel => {
      const other = reports.find((candidate) => candidate.id === found);
      if (request.adapter !== undefined || !other || (found !== "debugpy" && found !== "delve")) {
        throw new DebugError(
          "DEBUG_BAD_ARGUMENTS",
          `port ${request.port} is served by ${found}, not ${chosen}` +
            (found === "debugpy" || found === "delve"
              ? `; attach with adapter '${found}' (or leave adapter out)`
              : `; ${chosen} cannot attach to it`),
        );
      }
      const replanned = attachPlan(other, request.port, run.workingDirectory, this.launchMs);
      warnings.push(
        `port ${request.port} answered as ${found}, not as the ${chosen} the root marker named: attached as ${found}`,
      );
      return {
        adapterId: found,
        description: `${found}: attached to port ${request.port}`,
        args: replanned.args,
        evaluateContext: replanned.evaluateContext,
      };
    };
    return this.startSession(
      run,
      id,
      `${id}: attached to port ${request.port}`,
      plan,
      warnings,
      signal,
      // lldb's plan runs our own lldb-dap (gdb-remote to the port): its answer names only that.
      plan.connectsToPort ? onOtherAdapter : undefined,
    );
  }

  /**
   * Refuses a second session (see {@link assertFree}), once a session whose end has begun (a
   * cancelled launch, an exited program) has ended: its end is bounded, and nobody can use it.
   * A call given up meanwhile (`signal`: cancelled, its run disposed) stops waiting at once with
   * the signal's reason and starts nothing, also not once that end comes.
   */
  private async whenFree(conversationId: string, signal: AbortSignal | undefined): Promise<void> {
    const running = this.conversation(conversationId).session;
    if (running?.ending !== undefined) {
      const ended = running.ended();
      await (signal ? rejectOnAbort(ended, signal) : ended);
    }
    this.assertFree(conversationId);
  }

  private assertFree(conversationId: string): void {
    const running = this.conversation(conversationId).session;
    if (!running) return;
    const age = Math.round((Date.now() - running.startedAt) / 1000);
    const where =
      running.state === "stopped" && running.lastStop
        ? `stopped (${running.lastStop.reason})`
        : running.state;
    throw new DebugError(
      "DEBUG_SESSION_EXISTS",
      `a debug session is already running in this conversation: ${running.description} (${where}, started ${age} s ago); ` +
        "use it, or end it with op 'terminate' before starting another",
      { data: { description: running.description } },
    );
  }

  private async startSession(
    run: Run,
    id: AdapterId,
    description: string,
    plan: SessionPlan,
    warnings: readonly string[],
    signal?: AbortSignal,
    onOtherAdapter?: OnOtherAdapter,
  ): Promise<SessionStart> {
    const state = this.conversation(run.conversationId);
    const output = new OutputRing();
    // A call cancelled meanwhile starts nothing; and while it detected, another call (its lane
    // freed by the cancel) may have started a session here: that one stays, this one goes.
    const stillWanted = (): void => {
      if (signal?.aborted) throw new Error(`the ${plan.request} was cancelled`);
      this.assertFree(run.conversationId);
    };
    let adapter;
    try {
      try {
        stillWanted();
      } catch (error) {
        await plan.discard?.();
        throw error;
      }
      adapter = await plan.start(output);
    } catch (error) {
      for (const path of plan.cleanupPaths) rmSync(path, { recursive: true, force: true });
      if (error instanceof DebugError || signal?.aborted) throw error;
      throw new DebugError(
        "DEBUG_LAUNCH_FAILED",
        `could not start or reach the ${id} adapter: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    try {
      stillWanted();
    } catch (error) {
      await discardAdapter(adapter);
      for (const path of plan.cleanupPaths) rmSync(path, { recursive: true, force: true });
      throw error;
    }
    const session = new DebugSession({
      adapterId: id,
      description,
      root: run.workingDirectory,
      adapter,
      breakpoints: state.breakpoints,
      resumeWaitMs: this.resumeWaitMs,
      terminateDebuggee: plan.terminateDebuggee,
      exitsOnDisconnect: plan.exitsOnDisconnect,
      evaluateContext: plan.evaluateContext,
      cleanupPaths: plan.cleanupPaths,
      output,
    });
    state.breakpoints.resetResults();
    state.session = session;
    const ttl = setTimeout(() => {
      void session.terminate(`it reached the hard limit of ${formatDuration(this.ttlMs)} per session (TTL)`);
    }, this.ttlMs);
    ttl.unref();
    session.onEnd(() => {
      clearTimeout(ttl);
      if (state.session === session) state.session = undefined;
      state.last = session;
    });
    run.own(() => session.terminate("its run ended"), `debug session (${description})`);
    let outcome: Outcome;
    // Cancelled while it starts: the session ends (adapter and program), nobody asked for it any more.
    const onAbort = (): void => void session.terminate(`its ${plan.request} call was cancelled`);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      outcome = await session.start(
        plan.request,
        plan.args,
        {
          initializeMs: 15_000,
          launchMs: plan.launchMs,
          firstStopMs: this.firstStopMs,
        },
        onOtherAdapter,
      );
    } catch (error) {
      // A failed launch says what detection already knew could make it fail (interpreter pairing).
      if (error instanceof DebugError && error.code === "DEBUG_LAUNCH_FAILED" && warnings.length > 0) {
        throw new DebugError(
          "DEBUG_LAUNCH_FAILED",
          `${error.message}${warnings.map((warning) => `\nwarning: ${warning}`).join("")}`,
          { cause: error.cause },
        );
      }
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return { session, outcome, warnings };
  }

  /**
   * Terminates every session of every conversation (a harness shutting down). Not named
   * `dispose`: a run that wires the supervisor must not end other runs' sessions with its own.
   */
  async terminateAll(): Promise<void> {
    const sessions = [...this.conversations.values()]
      .map((state) => state.session)
      .filter((session) => session);
    await Promise.all(sessions.map((session) => session!.terminate("the debug supervisor was disposed")));
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The resource key the `debug` tool requires. */
export const debugSupervisorKey = resourceKey<DebugSupervisor>("debug-session supervisor");

/** Creates the supervisor to wire into runs under {@link debugSupervisorKey}. */
export function createDebugSupervisor(options: DebugSupervisorOptions = {}): DebugSupervisor {
  return new DebugSupervisor(options);
}
