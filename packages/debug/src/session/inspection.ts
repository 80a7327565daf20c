import type { DebugProtocol } from "@vscode/debugprotocol";
import { DebugError } from "../errors/debug-error.js";
import { clipValue, limits } from "./limits.js";
import { reportFrame } from "./report-frame.js";
import type { SessionCore, StopInfo } from "./session-core.js";
import { displayPath, sourceLine } from "./source-lines.js";

// The inspection requests: answered only while stopped, with frame ids and variable references
// valid for the current stop only; and the normalised description of a stop.

/** Thread ids and names. */
export async function threads(core: SessionCore): Promise<DebugProtocol.Thread[]> {
  const response = await core.request<DebugProtocol.ThreadsResponse>("threads");
  return response.body?.threads ?? [];
}

/** The thread a request without one is about: the last stop's, else the first one. */
export async function defaultThread(core: SessionCore, threadId: number | undefined): Promise<number> {
  if (threadId !== undefined) return threadId;
  if (core.lastStop?.threadId !== undefined) return core.lastStop.threadId;
  const all = await threads(core);
  const first = all.find((thread) => thread.id > 0) ?? all[0];
  if (!first) throw new DebugError("DEBUG_ADAPTER_ERROR", "the adapter reports no threads");
  return first.id;
}

/** Frames of a thread (at most {@link limits.frames}); their ids are valid until the next resume. */
export async function stack(
  core: SessionCore,
  threadId?: number,
): Promise<{ threadId: number; frames: DebugProtocol.StackFrame[]; total: number | undefined }> {
  core.assertStopped("stack");
  const thread = await defaultThread(core, threadId);
  const response = await core.request<DebugProtocol.StackTraceResponse>("stackTrace", {
    threadId: thread,
    startFrame: 0,
    levels: limits.frames,
  });
  const frames = (response.body?.stackFrames ?? []).slice(0, limits.frames);
  for (const frame of frames) core.validFrames.add(frame.id);
  return { threadId: thread, frames, total: response.body?.totalFrames };
}

/** Scopes of a frame from the current stop. */
export async function scopes(core: SessionCore, frameId: number): Promise<DebugProtocol.Scope[]> {
  core.assertStopped("scopes");
  checkFrame(core, frameId);
  const response = await core.request<DebugProtocol.ScopesResponse>("scopes", { frameId });
  const found = response.body?.scopes ?? [];
  for (const scope of found) core.learnReference(scope);
  return found;
}

/** What `variables` answers: the children kept, and what is known of the ones left out. */
export interface VariableChildren {
  /** At most {@link limits.variables}, values clipped. */
  readonly variables: DebugProtocol.Variable[];
  /** How many of the adapter's list were left out here. */
  readonly omitted: number;
  /**
   * How many children the reference has, when the adapter counted them (`indexedVariables` +
   * `namedVariables`); undefined when it did not, and then its list may itself be cut short
   * (debugpy lists the first 100 items of a container).
   */
  readonly total: number | undefined;
  /** How the first child left out is evaluated (`xs[50]`), when the adapter says. */
  readonly nextExpression: string | undefined;
}

/** Children of a reference (at most {@link limits.variables}, values clipped). */
export async function variables(core: SessionCore, reference: number): Promise<VariableChildren> {
  core.assertStopped("variables");
  if (!core.validReferences.has(reference)) {
    throw new DebugError(
      "DEBUG_STALE_REFERENCE",
      `reference ${reference} is not from the current stop (references are valid only until the program resumes); ` +
        "get fresh ones with op 'scopes' (or 'evaluate')",
    );
  }
  const response = await core.request<DebugProtocol.VariablesResponse>("variables", {
    variablesReference: reference,
  });
  const all = (response.body?.variables ?? []).filter((variable) => !hiddenVariable(variable.name));
  const kept = all
    .slice(0, limits.variables)
    .map((variable) => ({ ...variable, value: clipValue(variable.value) }));
  for (const variable of kept) core.learnReference(variable);
  const count = core.childCounts.get(reference);
  const counted = count ? (count.indexed ?? 0) + (count.named ?? 0) : undefined;
  return {
    variables: kept,
    omitted: all.length - kept.length,
    total: counted === undefined ? undefined : Math.max(counted, all.length),
    nextExpression: all[kept.length]?.evaluateName,
  };
}

/** Evaluates in a frame of the current stop (default: the frame the stop is reported at). */
export async function evaluate(
  core: SessionCore,
  expression: string,
  frameId?: number,
): Promise<DebugProtocol.EvaluateResponse["body"]> {
  core.assertStopped("evaluate");
  let frame = frameId;
  if (frame === undefined) {
    const { frames } = await stack(core);
    frame = reportFrame(frames, core.options.root, core.lastStop?.reason)?.frame.id;
  } else checkFrame(core, frame);
  const response = await core.request<DebugProtocol.EvaluateResponse>("evaluate", {
    expression,
    frameId: frame,
    context: core.options.evaluateContext,
  });
  const body = response.body;
  core.learnReference(body);
  return { ...body, result: clipValue(body.result) };
}

function checkFrame(core: SessionCore, frameId: number): void {
  if (!core.validFrames.has(frameId)) {
    throw new DebugError(
      "DEBUG_STALE_REFERENCE",
      `frame ${frameId} is not from the current stop (frame ids are valid only until the program resumes); ` +
        "get fresh ones with op 'stack'",
    );
  }
}

/**
 * Where a stop is: the frame {@link reportFrame} picks (the first in the working directory),
 * its line's text, the frames above it when it is not the top one, and the exception if any.
 */
export async function describeStop(core: SessionCore, stop: StopInfo): Promise<string> {
  const reason = stop.reason === "exception" ? "on an exception" : `(${stop.reason})`;
  let where = "";
  try {
    const { threadId, frames } = await stack(core, stop.threadId);
    const chosen = reportFrame(frames, core.options.root, stop.reason);
    if (chosen) {
      const { frame, index } = chosen;
      const path = frame.source?.path;
      const text = sourceLine(path, frame.line);
      where =
        ` in thread ${threadId} at ${displayPath(path, core.options.root)}:${frame.line} in ${frame.name} (frame ${frame.id})` +
        (text ? `\n  ${frame.line} | ${text}` : "") +
        (index > 0 ? `\n  ${framesAbove(frames, index, core.options.root)}` : "");
    }
  } catch (error) {
    where = ` (location unavailable: ${error instanceof Error ? error.message : String(error)})`;
  }
  let detail = "";
  if (stop.reason === "exception") detail = await exceptionDetail(core, stop);
  else if (stop.description && stop.description !== stop.reason) detail = `\n  ${stop.description}`;
  return `${stop.reason === "pause" ? "paused" : `stopped ${reason}`}${where}${detail}`;
}

/** The frames above the reported one (no source in the working directory): steps start there. */
function framesAbove(frames: readonly DebugProtocol.StackFrame[], index: number, root: string): string {
  const top = frames[0]!;
  const place = top.source?.path
    ? `${displayPath(top.source.path, root)}:${top.line}`
    : (top.source?.name ?? "<no source>");
  const count = index === 1 ? "1 frame" : `${index} frames`;
  return `(${count} above it without source in the working directory, the top one ${top.name} at ${place}: steps start there)`;
}

async function exceptionDetail(core: SessionCore, stop: StopInfo): Promise<string> {
  const fallback = [stop.description, stop.text].filter(Boolean).join(": ");
  if (core.capabilities.supportsExceptionInfoRequest && stop.threadId !== undefined) {
    try {
      const info = await core.request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", {
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

function hiddenVariable(name: string): boolean {
  return (
    name === "special variables" ||
    name === "function variables" ||
    name === "class variables" ||
    name === "$__lldb_extensions"
  );
}
