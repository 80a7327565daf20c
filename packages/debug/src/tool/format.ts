import { dirname } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { countNoun } from "@tools/registry";
import type { AdapterReport } from "../adapters/detect-adapter.js";
import type {
  DebugSession,
  Outcome,
  StopInfo,
  UnfollowedProcess,
  VariableChildren,
} from "../session/debug-session.js";
import { exitPhrase } from "../session/exit-signal.js";
import { displayPath, sourceLine } from "../session/source-lines.js";

/**
 * One line per adapter: marker, binary, usable or why not. A marker in a folder below the
 * working directory serves the programs in that folder (launch looks for the marker from the
 * program's folder up to the working directory).
 */
export function formatAdapters(reports: readonly AdapterReport[], root: string): string {
  return reports
    .map((report) => {
      const folder = report.marker ? displayPath(dirname(report.marker), root) : undefined;
      const scope = folder && folder !== root ? ` for programs under ${folder}/` : "";
      const marker = report.marker ? `marker ${displayPath(report.marker, root)} found` : "no root marker";
      const binary = report.binary ? `binary ${displayPath(report.binary, root)}` : "binary not found";
      const verdict = report.usable ? `usable${scope}` : `not usable: ${report.why}`;
      const warnings = report.warnings.map((warning) => `\n  warning: ${warning}`).join("");
      return `${report.id}: ${marker}; ${binary}; ${verdict}${warnings}`;
    })
    .join("\n");
}

/** The ops that wait for a stop, as {@link formatOutcome} words a wait that found none. */
export type WaitingOp = "launch" | "attach" | "continue" | "step_over" | "step_in" | "step_out" | "pause";

/**
 * How a wait ended, in words: the stop with its location, the exit code, or, when no stop came
 * within `waitedMs`, what `op` left running and what to do next (after a pause that did not
 * stop the program, never to pause).
 */
export async function formatOutcome(
  session: DebugSession,
  outcome: Outcome,
  waitedMs: number,
  op: WaitingOp,
  answer?: AbortSignal,
): Promise<string> {
  switch (outcome.kind) {
    case "stopped":
      return session.describeStop(outcome.stop, answer);
    case "exited": {
      const left = outcome.leftBehind ?? 0;
      const ended =
        left > 0
          ? `, and with it ${left} ${countNoun(left, "background processes")} the program had left running`
          : "";
      return `the program ${exitPhrase(outcome)}; the session has ended${ended}`;
    }
    case "ended":
      return `the session ended: ${outcome.reason}`;
    case "timeout":
      return stillRunning(op, Math.round(waitedMs / 1000)) + unfollowed(session.unfollowedProcesses());
  }
}

/** How many of the processes the session does not follow are named; the rest are counted. */
const maxUnfollowed = 5;

/**
 * The processes a program under debugpy started, which may be why no stop came: a breakpoint
 * reached only in one of them does not stop the session, and a fork that did not exec and
 * reaches one waits there for good (it inherits debugpy's tracing but not its connection), and
 * so does a parent waiting for it. Each is named by what it runs; "" when there are none.
 */
function unfollowed(processes: readonly UnfollowedProcess[]): string {
  if (processes.length === 0) return "";
  const named = processes
    .slice(0, maxUnfollowed)
    .map(({ pid, command, fork }) => `pid ${pid}: ${fork ? "a fork of the program" : command}`)
    .join("; ");
  const more = processes.length > maxUnfollowed ? `; and ${processes.length - maxUnfollowed} more` : "";
  const held = processes.some((entry) => entry.fork)
    ? "; a fork that reaches a breakpoint waits there for good (it carries debugpy's tracing, not its connection), " +
      "and a parent waiting for it waits too"
    : "";
  return (
    `\n  the program started ${processes.length} ${countNoun(processes.length, "processes")} the session does not follow (${named}${more}): ` +
    `debugpy stops only in the program's own process${held}; 'terminate' ends them all`
  );
}

/**
 * An `evaluate` answer: the value, its type and its reference; for a statement or a call with
 * no value (an empty result, as debugpy gives for `x = 5` and for `print(…)`), says so. Output
 * the evaluation wrote, when it arrived before the answer (ring cursors `before` to `after`), is
 * pointed to with the cursor that reads it; it stays in the program's output, as all output.
 */
export function formatEvaluation(
  body: Pick<DebugProtocol.EvaluateResponse["body"], "result" | "type" | "variablesReference">,
  before: number,
  after: number,
): string {
  const reference = body.variablesReference > 0 ? `  [reference ${body.variablesReference}]` : "";
  const value =
    body.result === "" && reference === ""
      ? "(evaluated; no value)"
      : `${body.result}${body.type ? ` (${body.type})` : ""}${reference}`;
  if (after <= before) return value;
  const lines = after - before;
  return `${value}\n(it wrote ${lines} ${countNoun(lines, "lines")} of output: read with {"op":"output","cursor":${before}})`;
}

function stillRunning(op: WaitingOp, seconds: number): string {
  const next = "use op 'pause' to stop it, 'status' to check, or 'terminate'";
  switch (op) {
    case "pause":
      return (
        `pause was sent but the program did not stop within ${seconds} s ` +
        "(it may be blocked in a system call or native code); try pause again, or terminate"
      );
    case "step_over":
    case "step_in":
    case "step_out":
      return `the step has not ended after ${seconds} s: the program is still running (a long call or a wait on the way); ${next}`;
    case "launch":
    case "attach":
    case "continue":
      return `still running after ${seconds} s (no stop yet); ${next}`;
  }
}

/** A short description of the last stop, without asking the adapter. */
export function formatStopShort(stop: StopInfo | undefined): string {
  if (!stop) return "stopped";
  return `stopped (${stop.reason}${stop.description && stop.description !== stop.reason ? `: ${stop.description}` : ""})${
    stop.threadId === undefined ? "" : ` in thread ${stop.threadId}`
  }`;
}

/** Where a page of frames is in its thread's stack (see `FramePage`). */
export interface FramePlace {
  /** The index of the page's first frame. */
  readonly start: number;
  /** The thread's frame count when it is known, else undefined. */
  readonly total: number | undefined;
  /** Frames exist after the page. */
  readonly more: boolean;
  /** The caller named the thread: the way to the next page names it too. */
  readonly threadGiven?: boolean;
}

/**
 * Frames as `#i frame <id> name at path:line | text`, `#i` counted from the top of the stack;
 * a later page's header says where it is (and of how many, when that is known), and the frames
 * after the page are mentioned, counted when their number is known, with the call that lists them.
 */
export function formatFrames(
  threadId: number,
  frames: readonly DebugProtocol.StackFrame[],
  place: FramePlace,
  root: string,
): string {
  const { start, total, more, threadGiven = false } = place;
  const lines = frames.map((frame, index) => {
    const path = frame.source?.path;
    const where = path ? `${displayPath(path, root)}:${frame.line}` : (frame.source?.name ?? "<no source>");
    const text = sourceLine(path, frame.line);
    return `#${start + index} frame ${frame.id} ${frame.name} at ${where}${text ? `  | ${text}` : ""}`;
  });
  const end = start + frames.length;
  let header = `thread ${threadId}`;
  if (start > 0) {
    const of = total !== undefined && total >= end ? ` of ${total}` : "";
    header += frames.length === 1 ? `, frame #${start}${of}` : `, frames #${start}–#${end - 1}${of}`;
  }
  const next = JSON.stringify({
    op: "stack",
    ...(threadGiven ? { thread_id: threadId } : {}),
    start_frame: end,
  });
  let after = "";
  if (more && total !== undefined && total > end) {
    const left = total - end;
    after =
      `\n… ${left} more ${countNoun(left, "frames")} (${left === 1 ? `#${end}` : `#${end}–#${total - 1}`}): ` +
      `list ${left === 1 ? "it" : "them"} with ${next}`;
  } else if (more) {
    after = `\n… more frames from #${end} (not counted): list them with ${next}`;
  }
  return `${header}\n${lines.join("\n")}${after}`;
}

/** Scopes with their references. */
export function formatScopes(scopes: readonly DebugProtocol.Scope[]): string {
  if (scopes.length === 0) return "no scopes";
  return scopes
    .map(
      (scope) =>
        `${scope.name}: reference ${scope.variablesReference}${scope.expensive ? " (expensive)" : ""}`,
    )
    .join("\n");
}

/**
 * Variables as `name (type) = value [reference N]`, then what was left out: the exact count when
 * the adapter counted the children, else what its list held, which may itself be cut short.
 */
export function formatVariables(children: VariableChildren): string {
  const { variables, omitted, total, nextExpression } = children;
  if (variables.length === 0 && !total) return "no variables";
  const lines = variables.map(
    (variable) =>
      `${variable.name}${variable.type ? ` (${variable.type})` : ""} = ${variable.value}` +
      (variable.variablesReference > 0 ? `  [reference ${variable.variablesReference}]` : ""),
  );
  const read = nextExpression
    ? `; evaluate reads any of them, e.g. {"op":"evaluate","expression":${JSON.stringify(nextExpression)}}`
    : "; evaluate an element or slice expression to read the others";
  let more = "";
  if (total !== undefined && total > variables.length) {
    more = `… ${total - variables.length} more: ${variables.length} of ${total} shown${read}`;
  } else if (omitted > 0) {
    more =
      `… ${omitted} more in the adapter's list (it gave no total, and may list only the first part ` +
      `of a large container)${read}`;
  }
  return [...lines, ...(more ? [more] : [])].join("\n");
}
