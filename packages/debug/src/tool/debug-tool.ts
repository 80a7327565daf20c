import { defineTool, rejectOnAbort, textResult, type ToolContext } from "@tools/registry";
import { z } from "zod";
import { adapterIds } from "../adapters/detect-adapter.js";
import { DebugError } from "../errors/debug-error.js";
import type { BreakpointStore } from "../session/breakpoint-store.js";
import type { DebugSession, Outcome } from "../session/debug-session.js";
import { limits } from "../session/limits.js";
import { displayPath } from "../session/source-lines.js";
import { debugSupervisorKey } from "../supervisor/debug-supervisor.js";
import {
  formatAdapters,
  formatFrames,
  formatOutcome,
  formatScopes,
  formatStopShort,
  formatVariables,
} from "./format.js";
import { checkBreakpoints } from "./check-breakpoints.js";
import { formatBreakpointResults, formatBreakpointStore, lineRanges } from "./format-breakpoints.js";
import { formatOutput } from "./format-output.js";

const ops = [
  "adapters",
  "status",
  "breakpoints",
  "launch",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "threads",
  "stack",
  "scopes",
  "variables",
  "evaluate",
  "output",
  "terminate",
] as const;

const input = z.object({
  op: z.enum(ops).describe("The operation."),
  file: z.string().optional().describe("breakpoints: the source file, relative to the working directory."),
  lines: z
    .array(z.number().int().positive())
    .optional()
    .describe(
      `breakpoints: 1-based lines (at most ${limits.breakpointsPerFile}); an empty list clears the file.`,
    ),
  program: z
    .string()
    .optional()
    .describe("launch: the program (.py file, Go package dir or .go file, binary, .dart file)."),
  args: z.array(z.string()).optional().describe("launch: the program's arguments."),
  adapter: z.enum(adapterIds).optional().describe("launch/attach: force an adapter instead of inferring it."),
  port: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe("attach: the local port the debuggee listens on."),
  thread_id: z
    .number()
    .int()
    .optional()
    .describe("continue/pause/steps/stack: default the last stopped thread."),
  frame_id: z.number().int().optional().describe("scopes (required), evaluate: a frame id from 'stack'."),
  reference: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("variables: a reference from 'scopes' or 'variables'."),
  expression: z.string().optional().describe("evaluate: the expression."),
  cursor: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "output: read from this cursor (the 'next cursor' of the previous read); default the oldest output kept.",
    ),
});

type Input = z.output<typeof input>;

/** The arguments each op reads; any other one given is refused, not silently ignored. */
const argumentsOf: Readonly<Record<Input["op"], readonly Exclude<keyof Input, "op">[]>> = {
  adapters: [],
  status: [],
  breakpoints: ["file", "lines"],
  launch: ["program", "args", "adapter"],
  attach: ["port", "adapter"],
  continue: ["thread_id"],
  pause: ["thread_id"],
  step_over: ["thread_id"],
  step_in: ["thread_id"],
  step_out: ["thread_id"],
  threads: [],
  stack: ["thread_id"],
  scopes: ["frame_id"],
  variables: ["reference"],
  evaluate: ["expression", "frame_id"],
  output: ["cursor"],
  terminate: [],
};

/** An argument really given: strict-schema callers fill the fields they do not mean with "" or []. */
function given(value: unknown): boolean {
  return value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);
}

/** Refuses arguments `args.op` does not read, naming the ops that do (a breakpoint given to launch). */
function refuseStrayArguments(args: Input): void {
  const takes = argumentsOf[args.op];
  const stray = (Object.keys(args) as (keyof Input)[]).filter(
    (key) => key !== "op" && given(args[key]) && !(takes as readonly string[]).includes(key),
  );
  if (stray.length === 0) return;
  const where = stray.map((key) => {
    const users = ops.filter((op) => (argumentsOf[op] as readonly string[]).includes(key));
    return `'${key}' (${users.join(", ")})`;
  });
  throw new DebugError(
    "DEBUG_BAD_ARGUMENTS",
    `op '${args.op}' does not take ${where.join(", ")}; it takes ${
      takes.length === 0 ? "nothing else" : takes.join(", ")
    }. Make each op its own call, e.g. {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py"}`,
  );
}

function need<K extends keyof Input>(args: Input, key: K): NonNullable<Input[K]> {
  const value = args[key];
  // "" is not given (see given()); an empty list is: `lines: []` clears a file.
  if (value === undefined || value === null || value === "") {
    throw new DebugError("DEBUG_BAD_ARGUMENTS", `op '${args.op}' needs '${String(key)}'`);
  }
  return value as NonNullable<Input[K]>;
}

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
    "stack → frame ids, scopes(frame_id) → references, variables(reference), evaluate(expression, frame_id?).",
    "Ids and references are valid only until the program resumes. continue/step_* return at the next stop, at exit, or say 'still running'.",
    "Ops: adapters, status, breakpoints, launch, attach, continue, pause, step_over, step_in, step_out, threads, stack, scopes, variables, evaluate, output, terminate.",
    'Example: {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py","args":["--fast"]}.',
  ].join("\n"),
  input,
  requires: [debugSupervisorKey],
  available: (run) => (run.conversationId ? true : "the run has no conversation id"),
  // "" counts as not given, as for the tool's own argument rule: not a path to check.
  paths: (args) =>
    [args.file, args.program].filter((path): path is string => typeof path === "string" && path !== ""),
  summarize: (args) => {
    if (args.op === "launch") return `debug: launch ${[args.program ?? "?", ...(args.args ?? [])].join(" ")}`;
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
async function execute(args: Input, context: ToolContext) {
  refuseStrayArguments(args);
  return rejectOnAbort(executeOp(args, context), context.signal);
}

async function executeOp(args: Input, context: ToolContext) {
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
        session.state === "stopped" && session.lastStop
          ? await session.describeStop(session.lastStop)
          : session.state;
      return textResult(
        `session ${session.description}, ${age} s old\n${where}\nbreakpoints:\n${breakpoints}`,
      );
    }
    case "breakpoints": {
      const file = context.resolvePath(need(args, "file"));
      const lines = need(args, "lines");
      await checkBreakpoints(file, lines, displayPath(file, root), state.breakpoints);
      state.breakpoints.set(file, lines);
      const session = state.session;
      if (session?.isConfigured) {
        const results = await session.sendBreakpoints(file);
        if (lines.length === 0) return textResult(`cleared the breakpoints of ${displayPath(file, root)}`);
        return textResult(formatBreakpointResults(file, results, root));
      }
      if (lines.length === 0) return textResult(`cleared the breakpoints of ${displayPath(file, root)}`);
      return textResult(
        `${displayPath(file, root)}: lines ${lineRanges(lines)} pending; they are sent when the program is launched`,
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
        await startText(session, outcome, warnings, supervisor.firstStopMs, state.breakpoints, root),
      );
    }
    case "attach": {
      const { session, outcome } = await supervisor.attach(
        run,
        { port: need(args, "port"), adapter: args.adapter },
        context.signal,
      );
      return textResult(
        await startText(session, outcome, [], supervisor.firstStopMs, state.breakpoints, root),
      );
    }
    case "continue":
    case "step_over":
    case "step_in":
    case "step_out": {
      const session = supervisor.require(run.conversationId);
      const command = (
        { continue: "continue", step_over: "next", step_in: "stepIn", step_out: "stepOut" } as const
      )[args.op];
      const outcome = await session.resume(command, args.thread_id);
      return textResult(await formatOutcome(session, outcome, supervisor.resumeWaitMs));
    }
    case "pause": {
      const session = supervisor.require(run.conversationId);
      const outcome = await session.pause(args.thread_id);
      if (outcome.kind === "already") {
        // The same normalised stop report as every other stop: reason, thread, location, line text.
        const where = outcome.stop ? await session.describeStop(outcome.stop) : formatStopShort(undefined);
        return textResult(`already ${where}; nothing to pause`);
      }
      return textResult(await formatOutcome(session, outcome, supervisor.resumeWaitMs));
    }
    case "threads": {
      const threads = await supervisor.require(run.conversationId).threads();
      return textResult(
        threads.length === 0
          ? "no threads"
          : threads.map((thread) => `${thread.id}: ${thread.name}`).join("\n"),
      );
    }
    case "stack": {
      const { threadId, frames, total } = await supervisor.require(run.conversationId).stack(args.thread_id);
      return textResult(formatFrames(threadId, frames, total, root));
    }
    case "scopes":
      return textResult(
        formatScopes(await supervisor.require(run.conversationId).scopes(need(args, "frame_id"))),
      );
    case "variables": {
      const children = await supervisor.require(run.conversationId).variables(need(args, "reference"));
      return textResult(formatVariables(children));
    }
    case "evaluate": {
      const body = await supervisor
        .require(run.conversationId)
        .evaluate(need(args, "expression"), args.frame_id);
      const reference = body.variablesReference > 0 ? `  [reference ${body.variablesReference}]` : "";
      return textResult(`${body.result}${body.type ? ` (${body.type})` : ""}${reference}`);
    }
    case "output": {
      const session = state.session ?? state.last;
      if (!session) return textResult("no output: no debug session has run in this conversation");
      return textResult(formatOutput(session.output, args.cursor ?? 0));
    }
    case "terminate": {
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

async function startText(
  session: DebugSession,
  outcome: Outcome,
  warnings: readonly string[],
  waitMs: number,
  breakpoints: BreakpointStore,
  root: string,
): Promise<string> {
  const parts = [`started ${session.description}`];
  for (const warning of warnings) parts.push(`warning: ${warning}`);
  if (breakpoints.files.size > 0) parts.push(`breakpoints:\n${formatBreakpointStore(breakpoints, root)}`);
  parts.push(await formatOutcome(session, outcome, waitMs));
  if (outcome.kind === "exited" || outcome.kind === "ended") {
    // It ended before any stop: what it printed is the likeliest explanation.
    const recent = session.output.tail(1500).trim();
    parts.push(recent ? `recent output:\n${recent}` : "(the program wrote no output)");
  }
  return parts.join("\n");
}
