import type { DebugProtocol } from "@vscode/debugprotocol";
import { countNoun } from "@tools/registry";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { DebugError } from "../errors/debug-error.js";
import { DapRequestError } from "../dap/dap-connection.js";
import { withoutAdapterFrames } from "./adapter-frames.js";
import { abortReason } from "./adapter-request.js";
import { expressionError } from "./expression-error.js";
import { clipValue, limits } from "./limits.js";
import { reportFrame } from "./report-frame.js";
import type { SessionCore } from "./session-core.js";
import type { StopInfo } from "./session-state.js";
import { renumbersIds, type ScopeOrigin } from "./stop-ids.js";
import { displayPath, sourceLine } from "./source-lines.js";

// The inspection requests: answered only while stopped, with frame ids and variable references
// valid for the current stop only; and the normalised description of a stop.

/** Thread ids and names. */
export async function threads(core: SessionCore, signal?: AbortSignal): Promise<DebugProtocol.Thread[]> {
  const response = await core.request<DebugProtocol.ThreadsResponse>("threads", undefined, undefined, signal);
  return response.body?.threads ?? [];
}

/** The thread a request without one is about: the last stop's, else the first one. */
export async function defaultThread(
  core: SessionCore,
  threadId: number | undefined,
  signal?: AbortSignal,
): Promise<number> {
  if (threadId !== undefined) return threadId;
  if (core.lastStop?.threadId !== undefined) return core.lastStop.threadId;
  const all = await threads(core, signal);
  const first = all.find((thread) => thread.id > 0) ?? all[0];
  if (!first) throw new DebugError("DEBUG_ADAPTER_ERROR", "the adapter reports no threads");
  return first.id;
}

/**
 * The refusal of a thread id the program does not list, naming the ones it does (`consequence`:
 * what follows, "so continue was not sent"); undefined when it lists it, or lists none.
 */
export async function unknownThread(
  core: SessionCore,
  threadId: number,
  consequence: string,
  signal?: AbortSignal,
): Promise<DebugError | undefined> {
  const all = await threads(core, signal);
  if (all.length === 0 || all.some((thread) => thread.id === threadId)) return undefined;
  const listed = all
    .slice(0, 20)
    .map((thread) => `${thread.id} (${thread.name})`)
    .join(", ");
  const more = all.length > 20 ? `, … ${all.length - 20} more` : "";
  return new DebugError(
    "DEBUG_BAD_ARGUMENTS",
    `thread ${threadId} is not a thread of the program, ${consequence}; its threads: ${listed}${more}. ` +
      "Give one of them as thread_id, or leave it out for the thread that stopped",
  );
}

/** One page of a thread's frames. */
export interface FramePage {
  readonly threadId: number;
  /** At most {@link limits.frames}; their ids are valid until the next resume. */
  readonly frames: DebugProtocol.StackFrame[];
  /** The index of the first frame (`#start`). */
  readonly start: number;
  /**
   * The thread's frame count when it is known: the page reaches the bottom of the stack, or
   * the adapter counts exactly (debugpy). Undefined otherwise: lldb-dap (from LLVM 20), delve
   * and dart give a total that only says more frames exist.
   */
  readonly total: number | undefined;
  /** Frames exist after the page (the adapter listed one past it). */
  readonly more: boolean;
}

/**
 * The adapters whose `totalFrames` is the stack's depth. The others estimate while they have
 * not reached the bottom: lldb-dap from LLVM 20 answers the frames it listed plus 20, delve
 * plus 50, dart plus a batch; lldb-dap 19 counts, but which lldb-dap answers is not known.
 */
const exactTotals: ReadonlySet<AdapterId> = new Set<AdapterId>(["debugpy"]);

/**
 * A page of a thread's frames, from `#startFrame` (at most {@link limits.frames}); their ids
 * are valid until the next resume, like those of every other page of the same stop. One frame
 * past the page is asked for, to learn whether more exist whatever total the adapter gives. A
 * start past the last frame is refused, saying how many there are when that is known; a
 * `threadId` the program does not have, naming the ones it has (adapters answer it with an
 * empty stack, lldb-dap, or a refusal in their own words).
 */
export async function stack(
  core: SessionCore,
  threadId?: number,
  startFrame = 0,
  signal?: AbortSignal,
): Promise<FramePage> {
  core.assertStopped("stack");
  // The stop's own set: a resume while the requests run replaces it (see `invalidate`).
  const stopFramesAsked = core.validFrames;
  const thread = await defaultThread(core, threadId, signal);
  const resumed = () =>
    sameStop(
      core,
      stopFramesAsked,
      "stack",
      `its stack was listed (thread ${thread})`,
      "list this stop's with op 'stack'",
    );
  resumed();
  // Asked only when the answer is empty or refused: a thread the stop's threads do not list.
  const notListed = async (): Promise<DebugError | undefined> =>
    threadId === undefined ? undefined : unknownThread(core, threadId, "so it has no stack", signal);
  const response = await core
    .request<DebugProtocol.StackTraceResponse>(
      "stackTrace",
      { threadId: thread, startFrame, levels: limits.frames + 1 },
      undefined,
      signal,
    )
    .catch(async (error: unknown) => {
      if (!DebugError.isInstance(error) || error.code !== "DEBUG_ADAPTER_ERROR") throw error;
      throw (await notListed().catch(() => undefined)) ?? error;
    });
  // An answer that came after a resume lists a stop that is gone: none of its ids may pass for
  // the current stop's (lldb-dap numbers frames by depth: its top frame would read the new top's).
  resumed();
  const listed = response.body?.stackFrames ?? [];
  const frames = listed.slice(0, limits.frames);
  const more = listed.length > limits.frames;
  const end = startFrame + frames.length;
  const given = response.body?.totalFrames;
  if (frames.length === 0) {
    const unknown = await notListed();
    if (unknown) throw unknown;
    if (startFrame > 0) throw await pastTheEnd(core, thread, startFrame, signal);
  }
  // Fewer frames than asked for: the stack ends with the page (the DAP's word for the bottom).
  const total = !more
    ? end
    : exactTotals.has(core.adapterId) && given !== undefined && given > end
      ? given
      : undefined;
  const shown = renumbersIds(core.adapterId)
    ? frames.map((frame, index) => ({ ...frame, id: ownFrameId(core, thread, startFrame + index, frame.id) }))
    : frames;
  for (const frame of shown) core.validFrames.add(frame.id);
  core.listedThreads.add(thread);
  const page = { threadId: thread, frames: shown, start: startFrame, total, more };
  const stoppedThread = threadId === undefined || thread === core.lastStop?.threadId;
  if (startFrame === 0 && stoppedThread) core.stopPage = page;
  return page;
}

/**
 * Refuses an answer to `command` that came after the program resumed (`asked`: the stop's frame
 * set when the request went out; a resume replaces it, a refused one gives it back): its ids and
 * references are of a stop that is gone. Says whether the program runs now or stopped again
 * (`again`: what to do then).
 */
function sameStop(
  core: SessionCore,
  asked: ReadonlySet<number>,
  command: string,
  what: string,
  again: string,
): void {
  if (core.validFrames === asked) return;
  const resumed = `the program resumed while ${what}: the stop asked about is gone`;
  if (core.state === "running")
    throw new DebugError(
      "DEBUG_NOT_STOPPED",
      `${resumed}; it is running now: use op 'pause' (or wait for a breakpoint) first`,
    );
  core.assertStopped(command);
  throw new DebugError("DEBUG_STALE_REFERENCE", `${resumed}; it has stopped again since: ${again}`);
}

/**
 * The first page of the stopped thread's frames: the one listed already in the current stop
 * (by the stop's report, a `stack`, an earlier evaluate), else listed now. Asked again only when
 * the stop changed: a resume drops it, and so does another thread taking the stop over.
 */
async function stopFrames(core: SessionCore, signal?: AbortSignal): Promise<FramePage> {
  const known = core.stopPage;
  if (known && (core.lastStop?.threadId ?? known.threadId) === known.threadId) return known;
  return stack(core, undefined, 0, signal);
}

/**
 * The tool's id of the frame at `index` of `thread`'s stack in the current stop (adapters that
 * renumber, see `renumbersIds`): the same however often the frame is listed (delve gives it a
 * new id at each listing), and a search of the stack for an id no page listed is not needed.
 */
function ownFrameId(core: SessionCore, thread: number, index: number, adapterFrame: number): number {
  const place = `${thread}:${index}`;
  let id = core.framesByPlace.get(place);
  if (id === undefined) {
    id = core.nextFrameId++;
    core.framesByPlace.set(place, id);
  }
  core.adapterFrames.set(id, adapterFrame);
  return id;
}

/** The adapter's id of a frame id the tool showed (itself, for adapters whose ids are shown). */
function adapterFrameId(core: SessionCore, frameId: number): number {
  return core.adapterFrames.get(frameId) ?? frameId;
}

/**
 * The refusal of a start past the last frame, with the stack's depth counted from the frames
 * themselves (fewer than `startFrame` of them), not from any adapter's total; without a count
 * when the stack is deeper than the search ({@link frameSearchDepth}).
 */
async function pastTheEnd(
  core: SessionCore,
  thread: number,
  startFrame: number,
  signal: AbortSignal | undefined,
): Promise<Error> {
  let depth = 0;
  // No frame #startFrame: the frames before it are all there are, unless the search stops short.
  const levels = Math.min(startFrame, frameSearchDepth);
  try {
    const response = await core.request<DebugProtocol.StackTraceResponse>(
      "stackTrace",
      { threadId: thread, startFrame: 0, levels },
      undefined,
      signal,
    );
    depth = response.body?.stackFrames?.length ?? 0;
  } catch {
    // A call given up has no refusal to give: it ends with the signal's reason.
    if (signal?.aborted) return abortReason(signal);
    // No count to give: the refusal says so.
  }
  return new DebugError(
    "DEBUG_BAD_ARGUMENTS",
    depth > 0 && (depth < levels || levels === startFrame)
      ? `start_frame ${startFrame} is past the end of thread ${thread}'s stack: it has ${depth} ${countNoun(depth, "frames")} ` +
          `(#0–#${depth - 1}); give ${depth === 1 ? "0" : `0 to ${depth - 1}`}`
      : `start_frame ${startFrame} is past the end of thread ${thread}'s stack (no frame #${startFrame}); ` +
          `list it from the top with {"op":"stack"}`,
  );
}

/**
 * Scopes of a frame from the current stop. At an adapter that binds scope references to the
 * frame asked about last (lldb-dap), one `scopes` or `variables` at a time (see `scopeTurn`).
 * `signal` gives the call up (see `scopeTurn`).
 */
export function scopes(
  core: SessionCore,
  frameId: number,
  signal?: AbortSignal,
): Promise<DebugProtocol.Scope[]> {
  return scopeTurn(core, () => frameScopes(core, frameId, signal), signal);
}

async function frameScopes(
  core: SessionCore,
  frameId: number,
  signal: AbortSignal | undefined,
): Promise<DebugProtocol.Scope[]> {
  core.assertStopped("scopes");
  const stop = core.validFrames;
  await checkFrame(core, frameId, signal);
  const resumed = () =>
    sameStop(
      core,
      stop,
      "scopes",
      `frame ${frameId}'s scopes were asked`,
      "get fresh frame ids with op 'stack'",
    );
  resumed();
  const frame = adapterFrameId(core, frameId);
  // Unknown until this answer is in: one that timed out or was cancelled may still be handled
  // by the adapter later, binding the references to this frame after all.
  core.scopesFrame = undefined;
  const response = await core.request<DebugProtocol.ScopesResponse>(
    "scopes",
    { frameId: frame },
    undefined,
    signal,
  );
  resumed();
  core.scopesFrame = frame;
  return (response.body?.scopes ?? []).map((scope) => {
    const shown = core.learnReference(scope, ownScopeReference(core, frameId, scope.name));
    if (shown.variablesReference > 0)
      core.scopeFrames.set(shown.variablesReference, { frame, shownFrame: frameId, name: scope.name });
    return shown;
  });
}

/**
 * Runs `work` (a `scopes` or a `variables`) once every earlier one of the session has ended, at
 * an adapter that shares scope references between frames (lldb-dap 19 binds Locals 1, Globals 2
 * and Registers 3 to the frame of its latest `scopes`): a `scopes` of another frame sent between
 * a `scopes` (or `rebindScope`) and the `variables` that reads it would answer that frame's
 * variables. The public {@link DebugSession} takes calls at once (the tool makes one at a time).
 * At the other adapters, at once. The checks of the stop run inside the turn, when it comes.
 *
 * A call given up (`signal` aborts; the tool's call was cancelled) rejects at once and holds
 * nobody up: waiting, it leaves the queue and sends nothing; running, it lets the next one go
 * (its requests, given the same signal, are given up too: an answer that comes later is dropped
 * and sets nothing). The adapter handles requests in the order they came, so one it still works
 * on delays the next one's answer but binds nothing unseen: a `scopes` given up leaves the frame
 * of the latest `scopes` unknown, and the next `variables` of a scope asks its scopes again.
 */
function scopeTurn<T>(core: SessionCore, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (core.adapterId !== "lldb") return work();
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const before = core.scopeQueue;
  let free!: () => void;
  // Settles once this call has ended or was given up, and never before the calls ahead of it.
  const done = new Promise<void>((resolve) => {
    free = resolve;
  });
  core.scopeQueue = done;
  return new Promise<T>((resolve, reject) => {
    let started = false;
    const giveUp = (): void => {
      reject(abortReason(signal!));
      // Waiting: the next call waits for the ones ahead of this one only. Running: for nothing more.
      if (started) free();
      else void before.then(free);
    };
    signal?.addEventListener("abort", giveUp, { once: true });
    void before.then(() => {
      if (signal?.aborted) return;
      started = true;
      // The turn is passed on before the answer is given: a call made on it comes after.
      const end = (): void => {
        signal?.removeEventListener("abort", giveUp);
        free();
      };
      work().then(
        (value) => {
          end();
          resolve(value);
        },
        (error: unknown) => {
          end();
          reject(error);
        },
      );
    });
  });
}

/**
 * The tool's reference already shown for the scope `name` of the frame the tool showed as
 * `frameId` in this stop (adapters that renumber, see `renumbersIds`): asking a frame's scopes
 * again answers the same references, not new ones for the same scopes, also after the stack was
 * listed again (delve gives the frame a new id of its own at every listing).
 */
function ownScopeReference(core: SessionCore, frameId: number, name: string): number | undefined {
  if (!renumbersIds(core.adapterId)) return undefined;
  for (const [reference, origin] of core.scopeFrames)
    if (origin.shownFrame === frameId && origin.name === name) return reference;
  return undefined;
}

/**
 * True when the latest `scopes` answer (for another frame than `origin`'s) may have taken the
 * adapter reference `adapterReference` over: it gave that same reference to a scope of its own
 * frame (lldb-dap up to 21), or the frame it bound is unknown (a `scopes` that timed out). An
 * lldb-dap that gives every frame's scopes their own references (llvm PR #124232) never does.
 */
function rebound(core: SessionCore, origin: ScopeOrigin, adapterReference: number): boolean {
  if (origin.frame === core.scopesFrame) return false;
  if (core.scopesFrame === undefined) return true;
  for (const [reference, other] of core.scopeFrames)
    if (other.frame === core.scopesFrame && core.adapterReference(reference) === adapterReference)
      return true;
  return false;
}

/**
 * The adapter's reference of `reference`, a scope's bound again to its frame when a `scopes`
 * request for another frame took it over since: lldb-dap (19) gives every frame's scopes the
 * same references (Locals 1, Globals 2, Registers 3) and binds them to the frame of its latest
 * `scopes` request, so a frame's Locals would list the locals of the frame asked about last.
 * A reference no other frame's scopes were given is read as it is, with no `scopes` again.
 */
async function rebindScope(
  core: SessionCore,
  reference: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const origin = core.scopeFrames.get(reference);
  if (core.adapterId !== "lldb" || !origin || !rebound(core, origin, core.adapterReference(reference)))
    return core.adapterReference(reference);
  core.scopesFrame = undefined;
  const response = await core
    .request<DebugProtocol.ScopesResponse>("scopes", { frameId: origin.frame }, undefined, signal)
    .catch((error: unknown) => {
      // A refusal of a request the caller never made, said as what it was for; a timeout, a
      // cancel or the session's end stay what they are.
      if (!DebugError.isInstance(error) || error.code !== "DEBUG_ADAPTER_ERROR") throw error;
      throw new DebugError(
        "DEBUG_ADAPTER_ERROR",
        `the ${origin.name} scope of reference ${reference} could not be read again from its frame (lldb-dap binds scope references to the frame asked about last; ${error.message}); get fresh references with op 'scopes'`,
        { cause: error },
      );
    });
  core.scopesFrame = origin.frame;
  const again = response.body?.scopes?.find((scope) => scope.name === origin.name);
  if (!again || again.variablesReference <= 0) {
    throw new DebugError(
      "DEBUG_ADAPTER_ERROR",
      `the adapter no longer gives the ${origin.name} scope of reference ${reference}'s frame; get fresh references with op 'scopes'`,
    );
  }
  core.adapterReferences.set(reference, again.variablesReference);
  return again.variablesReference;
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

/**
 * Children of a reference (at most {@link limits.variables}, values clipped). debugpy's own
 * entries are not children: its groups ("special variables", …) are left out, its `len()`
 * entry gives the count, and its "more" entry (the items after the first 100) is not an item.
 */
export function variables(
  core: SessionCore,
  reference: number,
  signal?: AbortSignal,
): Promise<VariableChildren> {
  return scopeTurn(core, () => children(core, reference, signal), signal);
}

async function children(
  core: SessionCore,
  reference: number,
  signal: AbortSignal | undefined,
): Promise<VariableChildren> {
  core.assertStopped("variables");
  const stop = core.validFrames;
  if (!core.validReferences.has(reference)) {
    throw new DebugError(
      "DEBUG_STALE_REFERENCE",
      `reference ${reference} is not from the current stop (references are valid only until the program resumes); ` +
        "get fresh ones with op 'scopes' (or 'evaluate')",
    );
  }
  const adapterReference = await rebindScope(core, reference, signal);
  const resumed = () =>
    sameStop(
      core,
      stop,
      "variables",
      `reference ${reference} was read`,
      "get fresh references with op 'scopes' (or 'evaluate')",
    );
  resumed();
  const response = await core.request<DebugProtocol.VariablesResponse>(
    "variables",
    { variablesReference: adapterReference },
    undefined,
    signal,
  );
  resumed();
  const listed = (response.body?.variables ?? []).filter((variable) => !hiddenVariable(variable.name));
  const length = listed.find(isLengthEntry);
  const items = listed.filter((variable) => variable !== length && variable.type !== "MoreItemsRange");
  const kept = items
    .slice(0, limits.variables)
    .map((variable) => core.learnReference({ ...variable, value: clipValue(variable.value) }));
  const count = core.childCounts.get(reference);
  // delve counts its `len()` entry among the named children: no item.
  const counted = count
    ? (count.indexed ?? 0) + (count.named ?? 0) - (length && (count.named ?? 0) > 0 ? 1 : 0)
    : length
      ? Number(length.value)
      : undefined;
  return {
    variables: kept,
    omitted: items.length - kept.length,
    total: counted === undefined ? undefined : Math.max(counted, items.length),
    nextExpression: items[kept.length]?.evaluateName,
  };
}

/**
 * Evaluates in a frame of the current stop (default: the frame the stop is reported at).
 * `signal` gives the call up: an expression not sent yet (the stop's frames still being listed)
 * is never sent, so a cancelled call runs no code; one sent already has its answer dropped.
 */
export async function evaluate(
  core: SessionCore,
  expression: string,
  frameId?: number,
  signal?: AbortSignal,
): Promise<DebugProtocol.EvaluateResponse["body"]> {
  core.assertStopped("evaluate");
  const stop = core.validFrames;
  let frame = frameId;
  if (frame === undefined) {
    const { frames } = await stopFrames(core, signal);
    frame = reportFrame(frames, core.options.root, core.lastStop?.reason)?.frame.id;
  } else await checkFrame(core, frame, signal);
  const shown = JSON.stringify(expression.length > 60 ? `${expression.slice(0, 60)}…` : expression);
  sameStop(core, stop, "evaluate", `${shown} was to be evaluated (it was not sent)`, "evaluate it again");
  let response: DebugProtocol.EvaluateResponse;
  try {
    response = await core.request<DebugProtocol.EvaluateResponse>(
      "evaluate",
      {
        expression,
        frameId: frame === undefined ? undefined : adapterFrameId(core, frame),
        context: core.options.evaluateContext,
      },
      undefined,
      signal,
    );
  } catch (error) {
    throw callStopped(core, error) ?? failedExpression(core, error, stop, shown, frame) ?? error;
  }
  // An answer that came after a resume is of a stop that is gone: its value may no longer hold,
  // and its reference would pass for the current stop's. The expression did run (any effect stays).
  sameStop(
    core,
    stop,
    "evaluate",
    `${shown} was evaluated (it ran in the stop asked about, and any effect it had stays)`,
    "evaluate it again in this stop for its value now (it runs again: an assignment or a call in it takes effect a second time)",
  );
  const body = core.learnReference(response.body);
  return { ...body, result: clipValue(body.result) };
}

/**
 * delve's refusal of a `call` that stopped before it returned (a breakpoint in the function it
 * called): delve leaves the program inside the call (its frames on top of the stop's), so the
 * stop's frame ids now name other frames. They are dropped, and the refusal says so.
 */
function callStopped(core: SessionCore, error: unknown): DebugError | undefined {
  if (core.adapterId !== "delve" || !DebugError.isInstance(error) || error.code !== "DEBUG_ADAPTER_ERROR")
    return;
  if (!/\bcall stopped\b/.test(error.message)) return;
  core.invalidate();
  return new DebugError(
    "DEBUG_ADAPTER_ERROR",
    `${error.message}: the call stopped before it returned (at a breakpoint in what it called), and delve left the program inside it, ` +
      "so the frame ids and references of this stop are no longer valid; op 'stack' shows where it is now. " +
      "Clear that breakpoint (op 'breakpoints') before calling it again",
    { cause: error },
  );
}

/**
 * The adapter's refusal of an expression that failed in the program's language (see
 * `expressionError`) as that failure: the expression, the frame it ran in, the language's
 * error, and that the program is still stopped where it was. Undefined for anything else (a
 * refusal of another shape stays the adapter's refusal), and when the stop asked about is gone.
 */
function failedExpression(
  core: SessionCore,
  error: unknown,
  stop: ReadonlySet<number>,
  shown: string,
  frameId: number | undefined,
): DebugError | undefined {
  if (!DebugError.isInstance(error) || error.code !== "DEBUG_ADAPTER_ERROR") return;
  const refusal = error.cause;
  if (!(refusal instanceof DapRequestError) || refusal.kind !== "failed") return;
  // Said only of the stop asked about: after a resume, the resume is what to tell.
  if (core.state !== "stopped" || core.validFrames !== stop) return;
  const said = expressionError(core.adapterId, withoutAdapterFrames(refusal.message));
  if (!said) return;
  const frame = frameId === undefined ? undefined : core.stopPage?.frames.find((one) => one.id === frameId);
  const place = frame
    ? ` in ${frame.name} (${displayPath(frame.source?.path, core.options.root)}:${frame.line})`
    : frameId === undefined
      ? ""
      : ` in frame ${frameId}`;
  return new DebugError(
    "DEBUG_EVALUATE_FAILED",
    [
      `the expression ${shown} failed${place}: ${said.error}`,
      ...said.detail.map((line) => `  ${withFramePathShown(line, core.options.root)}`),
      "The program is still stopped where it was, and this stop's frame ids and references still hold: " +
        "correct the expression and evaluate it again, or step or continue.",
    ].join("\n"),
    { data: { error: said.error }, cause: error },
  );
}

/**
 * A traceback frame line (`File "/abs/app.py", line 5, in compute`) with its path shown as the
 * tool shows frames elsewhere: relative to the working directory when it lies inside it. Any
 * other line is returned as it is.
 */
function withFramePathShown(line: string, root: string): string {
  return line.replace(
    /^(\s*File ")([^"]+)(", line \d+)/,
    (_all, before: string, path: string, after: string) => `${before}${displayPath(path, root)}${after}`,
  );
}

/** How deep the frames of a stop are searched for an id no page listed. */
const frameSearchDepth = 1000;

/**
 * Refuses a frame id no `stack` page of this stop listed, saying which it is: one of this stop
 * not listed yet (and the page that lists it), or none of this stop's (an earlier stop's).
 */
async function checkFrame(core: SessionCore, frameId: number, signal?: AbortSignal): Promise<void> {
  if (core.validFrames.has(frameId)) return;
  // The tool's own ids: one no page of this stop listed is an earlier stop's (or none at all).
  if (renumbersIds(core.adapterId)) throw staleFrame(frameId, "");
  const stopThread = core.lastStop?.threadId;
  const { found, complete } = await findFrame(core, frameId, signal);
  if (found) {
    const page = Math.floor(found.index / limits.frames) * limits.frames;
    const call = {
      op: "stack",
      ...(found.threadId === stopThread ? {} : { thread_id: found.threadId }),
      ...(page === 0 ? {} : { start_frame: page }),
    };
    throw new DebugError(
      "DEBUG_BAD_ARGUMENTS",
      `frame ${frameId} is in the current stop (#${found.index} of thread ${found.threadId}) but not listed yet: ` +
        `list its page first with ${JSON.stringify(call)}`,
    );
  }
  throw staleFrame(frameId, complete ? "" : ` among the first ${frameSearchDepth} frames of each thread`);
}

function staleFrame(frameId: number, searched: string): DebugError {
  return new DebugError(
    "DEBUG_STALE_REFERENCE",
    `frame ${frameId} is not a frame of the current stop${searched} (frame ids are valid only until the program resumes); ` +
      "get fresh ones with op 'stack'",
  );
}

/**
 * Where a frame id is in the stacks of this stop's threads listed so far (and the stopped one):
 * its thread and index when found; `complete` is false when a stack was deeper than the search.
 */
async function findFrame(
  core: SessionCore,
  frameId: number,
  signal: AbortSignal | undefined,
): Promise<{ found?: { threadId: number; index: number }; complete: boolean }> {
  const threads = new Set(core.listedThreads);
  try {
    threads.add(await defaultThread(core, undefined, signal));
  } catch {
    // No thread to search beyond those listed (a call given up stops below).
  }
  let complete = true;
  for (const threadId of threads) {
    if (signal?.aborted) throw abortReason(signal);
    try {
      const response = await core.request<DebugProtocol.StackTraceResponse>(
        "stackTrace",
        { threadId, startFrame: 0, levels: frameSearchDepth },
        undefined,
        signal,
      );
      const frames = response.body?.stackFrames ?? [];
      const index = frames.findIndex((frame) => frame.id === frameId);
      if (index >= 0) return { found: { threadId, index }, complete };
      if (frames.length >= frameSearchDepth) complete = false;
    } catch {
      // A call given up is not a search that found nothing: its id was not looked for.
      if (signal?.aborted) throw abortReason(signal);
      // A thread that ended meanwhile has no frames to search.
    }
  }
  if (signal?.aborted) throw abortReason(signal);
  return { complete };
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

/**
 * An adapter's `len()` entry of a container: its length, no item of it. debugpy marks it
 * read-only; delve gives it the evaluate name `len(<the container>)`, which no item has (a map
 * key "len()" is named `"len()"` and evaluated as `m["len()"]`).
 */
export function isLengthEntry(variable: DebugProtocol.Variable): boolean {
  if (variable.name !== "len()" || !/^\d+$/.test(variable.value)) return false;
  return (
    variable.presentationHint?.attributes?.includes("readOnly") === true ||
    /^len\(.+\)$/.test(variable.evaluateName ?? "")
  );
}

function hiddenVariable(name: string): boolean {
  return (
    name === "special variables" ||
    name === "function variables" ||
    name === "class variables" ||
    name === "$__lldb_extensions"
  );
}
