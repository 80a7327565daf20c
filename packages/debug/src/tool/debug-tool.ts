import { defineTool, rejectOnAbort, textResult, type ToolContext } from "@tools/registry";
import { DebugError } from "../errors/debug-error.js";
import { formatWait } from "../internal/format-wait.js";
import { shellWords } from "../internal/shell-quote.js";
import type { BreakpointResult, BreakpointStore } from "../session/breakpoint-store.js";
import type { DebugSession, Outcome } from "../session/debug-session.js";
import { limits } from "../session/limits.js";
import { displayPath } from "../session/source-lines.js";
import { debugSupervisorKey, defaultBreakpointHitMs } from "../supervisor/debug-supervisor.js";
import {
  formatAdapters,
  formatEvaluation,
  formatFrames,
  formatOutcome,
  formatScopes,
  formatStopShort,
  formatVariables,
} from "./format.js";
import { checkBreakpoints } from "./check-breakpoints.js";
import { debugInput, need, refuseStrayArguments, type DebugInput } from "./debug-arguments.js";
import { formatBreakpointResults, formatBreakpointStore } from "./format-breakpoints.js";
import { lineRanges } from "../internal/line-ranges.js";
import { formatOutput, formatOutputSince } from "./format-output.js";

/**
 * The `debug` tool: one Debug Adapter Protocol session per conversation (debugpy, lldb-dap,
 * delve, dart). Exec tier and not parallel-safe: the session's state lives between calls.
 */
export const debugTool = defineTool({
  name: "debug",
  tier: "exec",
  parallelSafe: false,
  description: [
    "Drive a debugger (Debug Adapter Protocol: debugpy for Python, delve for Go, lldb-dap for C/C++/Rust binaries, dart).",
    "One session per conversation (30 min limit). Set breakpoints (before or after launch), launch, then inspect while stopped:",
    `stack → frame ids (${limits.frames} a page; start_frame lists the next), scopes(frame_id) → references, variables(reference), evaluate(expression, frame_id?).`,
    "Ids and references are valid only until the program resumes. continue/step_* return at the next stop, at exit, or say 'still running'; " +
      `breakpoints set while the program runs wait a moment (${formatWait(defaultBreakpointHitMs)} by default, counted from the adapter's answer) for a stop at one.`,
    "A stop reached after an answer is reported by status or the next breakpoints/continue/step call (a continue/step then resumes nothing).",
    "Ops: adapters, status, breakpoints, launch, attach, continue, pause, step_over, step_in, step_out, threads, stack, scopes, variables, evaluate, output, terminate.",
    'Example: {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py","args":["--fast"]}.',
  ].join("\n"),
  input: debugInput,
  requires: [debugSupervisorKey],
  available: (run) => (run.conversationId ? true : "the run has no conversation id"),
  // "" counts as not given, as for the tool's own argument rule: not a path to check.
  paths: (args) =>
    [args.file, args.program].filter((path): path is string => typeof path === "string" && path !== ""),
  summarize: (args) => {
    if (args.op === "launch")
      return `debug: launch ${shellWords([args.program ?? "?", ...(args.args ?? [])])}`;
    if (args.op === "attach") return `debug: attach to port ${args.port ?? "?"}`;
    if (args.op === "breakpoints")
      return `debug: breakpoints ${args.file ?? "?"} ${JSON.stringify(args.lines ?? [])}`;
    if (args.op === "evaluate") return `debug: evaluate ${args.expression ?? ""}`;
    return `debug: ${args.op}`;
  },
  execute: (args, context) => execute(args, context),
});

/**
 * Runs the op, answering at once when the call is cancelled: a launch or attach still starting
 * then ends its session (the supervisor sees the same signal), a resume leaves the program
 * running (as after "still running"), the rest has nothing left to undo.
 */
async function execute(args: DebugInput, context: ToolContext) {
  refuseStrayArguments(args);
  return rejectOnAbort(executeOp(args, context), context.signal);
}

async function executeOp(args: DebugInput, context: ToolContext) {
  const { run } = context;
  const supervisor = run.require(debugSupervisorKey);
  const root = run.workingDirectory;
  const state = supervisor.conversation(run.conversationId);
  switch (args.op) {
    case "adapters":
      return textResult(formatAdapters(await supervisor.adapters(root), root));
    case "status": {
      const session = state.session;
      // Without a live session the adapter's answers are the last session's, not current ones.
      const breakpoints = formatBreakpointStore(state.breakpoints, root, { ended: !session });
      if (!session) {
        const last = state.last
          ? `; the last one (${state.last.description}) ended because ${state.last.endReason}`
          : "";
        return textResult(`no debug session${last}\nbreakpoints:\n${breakpoints}`);
      }
      const age = Math.round((Date.now() - session.startedAt) / 1000);
      const where =
        session.state === "exited"
          ? `${session.exitText}; the session is ending`
          : session.ending !== undefined
            ? `ending: ${session.ending}`
            : session.state === "stopped" && session.lastStop
              ? await session.describeStop(session.lastStop, context.signal)
              : session.state;
      return textResult(
        `session ${session.description}, ${age} s old\n${where}\nbreakpoints:\n${breakpoints}`,
      );
    }
    case "breakpoints": {
      const file = context.resolvePath(need(args, "file"));
      const lines = need(args, "lines");
      await checkBreakpoints(file, lines, displayPath(file, root), state.breakpoints);
      // What the session holds of the file before this call (or may, after a clear that failed).
      const before = state.breakpoints.files.get(file);
      const held = before && [...new Set([...before.lines, ...(before.held ?? [])])].sort((a, b) => a - b);
      state.breakpoints.set(file, lines);
      const session = state.session;
      const path = displayPath(file, root);
      if (session?.isConfigured) {
        // A stop no answer said yet (one that came after an earlier wait): this answer says it.
        const unseen = session.unreportedStop;
        // A running program may reach a new breakpoint at once (a line it runs all the time):
        // its stop is said. The wait starts with the request (the stop can come before the
        // answer; nothing runs between these two statements), its bound once the adapter has
        // answered (the breakpoint is set then): a stop after it is said by the next call.
        const sent = session.sendBreakpoints(file, held);
        const hit =
          session.state === "running" && lines.length > 0
            ? session.waitOutcome(supervisor.breakpointHitMs, sent)
            : undefined;
        let results: BreakpointResult[] | undefined;
        try {
          results = await sent;
        } catch (error) {
          if (lines.length === 0 && held?.length) {
            // Not cleared for sure: status says the lines the session may still stop at.
            const why = error instanceof Error ? error.message : String(error);
            state.breakpoints.failClear(
              file,
              held,
              `not cleared in this session: clearing them failed (${why}), so the program may still stop at them; ` +
                "op 'breakpoints' with lines [] clears them again",
            );
          }
          // The program ended while the request ran, inside the wait: its end is the answer, with
          // what it wrote, as for an end after the adapter's answer (it said only "no answer").
          const end =
            hit && error instanceof DebugError && error.code === "DEBUG_SESSION_ENDED"
              ? await hit
              : undefined;
          if (end?.kind !== "exited" && end?.kind !== "ended") throw error;
          return textResult(
            `${path}: lines ${lineRanges(lines)} pending: the program ended before the adapter answered; ` +
              "they are sent when the program is launched or attached\n" +
              (await hitText(session, end, supervisor.breakpointHitMs, context.signal)),
          );
        }
        // Undefined: a file the session's adapter cannot use (a .py file for lldb), not sent, kept for a session of its own.
        const listed =
          lines.length === 0
            ? `cleared the breakpoints of ${path}`
            : results
              ? formatBreakpointResults(file, results, root)
              : `${path}: lines ${lineRanges(lines)} pending: ${state.breakpoints.files.get(file)?.skipped ?? "not sent"}`;
        if (unseen && session.unreportedStop === unseen) {
          const where = await session.describeStop(unseen, context.signal);
          return textResult(
            `${listed}\nthe program had stopped before this call, and no answer had said so: ${where}`,
          );
        }
        if (!hit || !results?.some((result) => result.verified)) return textResult(listed);
        return textResult(
          `${listed}\n${await hitText(session, await hit, supervisor.breakpointHitMs, context.signal)}`,
        );
      }
      if (lines.length === 0) return textResult(`cleared the breakpoints of ${path}`);
      return textResult(
        `${path}: lines ${lineRanges(lines)} pending; they are sent when the program is launched or attached`,
      );
    }
    case "launch": {
      const program = context.resolvePath(need(args, "program"));
      context.progress(`launching ${displayPath(program, root)}…`);
      const { session, outcome, warnings } = await supervisor.launch(
        run,
        { program, args: args.args ?? [], adapter: args.adapter },
        context.signal,
      );
      return textResult(
        await startText(
          session,
          outcome,
          warnings,
          supervisor.firstStopMs,
          state.breakpoints,
          root,
          "launch",
          context.signal,
        ),
      );
    }
    case "attach": {
      const { session, outcome, warnings } = await supervisor.attach(
        run,
        { port: need(args, "port"), adapter: args.adapter },
        context.signal,
      );
      return textResult(
        await startText(
          session,
          outcome,
          warnings,
          supervisor.firstStopMs,
          state.breakpoints,
          root,
          "attach",
          context.signal,
        ),
      );
    }
    case "continue":
    case "step_over":
    case "step_in":
    case "step_out": {
      const session = supervisor.require(run.conversationId);
      const unseen = session.unreportedStop;
      if (unseen) {
        // A stop that came while nobody waited (after "still running", after the breakpoints'
        // wait): resuming would run past a place the user never learnt the program reached.
        const where = await session.describeStop(unseen, context.signal);
        return textResult(
          `the program had stopped before this ${args.op}, and no answer had said so: ${where}\n` +
            `nothing was resumed: inspect it here, or ${args.op} again to run on`,
        );
      }
      const command = (
        { continue: "continue", step_over: "next", step_in: "stepIn", step_out: "stepOut" } as const
      )[args.op];
      const mark = session.output.mark();
      const outcome = await session.resume(command, args.thread_id);
      const text = await formatOutcome(session, outcome, supervisor.resumeWaitMs, args.op, context.signal);
      if (args.op === "continue" && outcome.kind === "stopped" && outcome.stop.reason === "step") {
        // lldb keeps a step that a breakpoint interrupted, and a continue finishes it (delve and
        // debugpy drop it).
        return textResult(
          `${text}\n(a continue that stopped on a step: the adapter finished the step that an earlier stop interrupted; continue again to run on)`,
        );
      }
      if (outcome.kind !== "exited" && outcome.kind !== "ended") return textResult(text);
      // The program ended on the way: what it wrote meanwhile likely says why.
      const what = args.op === "continue" ? "the continue" : "the step";
      return textResult(
        `${text}\n${formatOutputSince(session.output, session.output.cursorSince(mark), what, failedEnd(outcome))}`,
      );
    }
    case "pause": {
      const session = supervisor.require(run.conversationId);
      const outcome = await session.pause(args.thread_id);
      if (outcome.kind === "already") {
        // The same normalised stop report as every other stop: reason, thread, location, line text.
        const where = outcome.stop
          ? await session.describeStop(outcome.stop, context.signal)
          : formatStopShort(undefined);
        // Its own line after the quoted source line, not glued onto it.
        return textResult(`already ${where}\nnothing to pause: continue or step from here`);
      }
      return textResult(
        await formatOutcome(session, outcome, supervisor.resumeWaitMs, "pause", context.signal),
      );
    }
    case "threads": {
      const threads = await supervisor.require(run.conversationId).threads(context.signal);
      return textResult(
        threads.length === 0
          ? "no threads"
          : threads.map((thread) => `${thread.id}: ${thread.name}`).join("\n"),
      );
    }
    case "stack": {
      const page = await supervisor
        .require(run.conversationId)
        .stack(args.thread_id, args.start_frame, context.signal);
      return textResult(
        formatFrames(
          page.threadId,
          page.frames,
          { ...page, threadGiven: args.thread_id !== undefined },
          root,
        ),
      );
    }
    case "scopes":
      return textResult(
        formatScopes(
          await supervisor.require(run.conversationId).scopes(need(args, "frame_id"), context.signal),
        ),
      );
    case "variables": {
      const children = await supervisor
        .require(run.conversationId)
        .variables(need(args, "reference"), context.signal);
      return textResult(formatVariables(children));
    }
    case "evaluate": {
      const session = supervisor.require(run.conversationId);
      const mark = session.output.mark();
      const body = await session.evaluate(need(args, "expression"), args.frame_id, context.signal);
      // Output that went on a line left open (print(…, end="")) is read from that line's entry.
      return textResult(formatEvaluation(body, session.output.cursorSince(mark), session.output.end));
    }
    case "output": {
      const session = state.session ?? state.last;
      if (!session) return textResult("no output: no debug session has run in this conversation");
      return textResult(formatOutput(session.output, args.cursor ?? 0));
    }
    case "terminate": {
      const current = supervisor.conversation(run.conversationId).session;
      const ending = current && current.state !== "exited" ? current.ending : undefined;
      if (current && ending !== undefined) {
        // Already ending (a cancelled launch, the TTL): what terminate asks is under way.
        await current.ended();
        return textResult(
          `${current.description} was already ending because ${ending}; it has ended: the adapter and the program are gone`,
        );
      }
      const session = supervisor.require(run.conversationId);
      if (session.attached) {
        // Attach leaves the program running (disconnect without terminateDebuggee).
        await session.terminate("it was detached on request");
        const pids = [...session.debuggeePids];
        const which = pids.length > 0 ? ` (pid ${pids.join(", ")})` : "";
        return textResult(`detached (${session.description}); the program${which} keeps running`);
      }
      await session.terminate("it was terminated on request");
      return textResult(`terminated ${session.description}; the adapter and the program are gone`);
    }
  }
}

/**
 * What became of a running program after breakpoints were set in it, within `waitedMs` of the
 * adapter's answer: it stopped (at one of them, the report says where), ended, or runs on.
 */
async function hitText(
  session: DebugSession,
  outcome: Outcome,
  waitedMs: number,
  answer: AbortSignal,
): Promise<string> {
  if (outcome.kind === "timeout") {
    const within = formatWait(waitedMs);
    return (
      `the program is running and did not stop within ${within} of the adapter's answer: it stops when it reaches one; ` +
      "op 'status', or the next 'breakpoints', 'continue' or step, reports that stop; 'pause' stops it now"
    );
  }
  const text = await formatOutcome(session, outcome, waitedMs, "continue", answer);
  if (outcome.kind === "stopped") return `the program has ${text}`;
  // It ended meanwhile: what it wrote says why, as for an end a launch or continue reports.
  return `${text}\n${recentOutput(session, outcome)}`;
}

/** What the program wrote last, for an answer that reports its end (see `OutputRing.tail`). */
function recentOutput(session: DebugSession, outcome: Outcome): string {
  const recent = session.output.tail(1500, "op 'output' reads them", failedEnd(outcome)).trim();
  return recent ? `recent output:\n${recent}` : "(the program wrote no output)";
}

/** An end of the program other than a clean exit with code 0: its stderr likely says why. */
function failedEnd(outcome: Outcome): boolean {
  return !(outcome.kind === "exited" && outcome.exitCode === 0 && outcome.signal === undefined);
}

async function startText(
  session: DebugSession,
  outcome: Outcome,
  warnings: readonly string[],
  waitMs: number,
  breakpoints: BreakpointStore,
  root: string,
  op: "launch" | "attach",
  answer: AbortSignal,
): Promise<string> {
  const parts = [`started ${session.description}`];
  for (const warning of warnings) parts.push(`warning: ${warning}`);
  if (breakpoints.files.size > 0) parts.push(`breakpoints:\n${formatBreakpointStore(breakpoints, root)}`);
  parts.push(await formatOutcome(session, outcome, waitMs, op, answer));
  if (outcome.kind === "exited" || outcome.kind === "ended") {
    // It ended before any stop: what it printed is the likeliest explanation.
    parts.push(recentOutput(session, outcome));
  }
  return parts.join("\n");
}
