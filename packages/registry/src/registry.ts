import { isAbsolute, resolve } from "node:path";
import { ToolsError, errorMessage } from "./errors/tools-error.js";
import type { CallEvent, CallEventListener } from "./events/call-events.js";
import { exportTools, type SchemaFormat, type ToolSchemaOf } from "./export/provider-formats.js";
import { resolveInside, workspaceContainment } from "./guardrails/workspace-containment.js";
import { enterCallerCall } from "./invoke/caller-calls.js";
import { checkApprovalPolicy, type ApprovalPolicy, type Approver } from "./invoke/approval.js";
import { needsApproval, requestApproval } from "./invoke/approval-gate.js";
import type { CallInfo, Guardrail, ResultWrapper } from "./invoke/guardrail.js";
import { callSignal } from "./invoke/call-signal.js";
import { noLanes, reserveLane, type LaneEntry } from "./invoke/enter-lane.js";
import { rejectOnAbort } from "./invoke/reject-on-abort.js";
import { cancelledCall, hiddenFromSurface, notWired, tierExceeded, unknownTool } from "./invoke/refusals.js";
import { validateArguments } from "./invoke/validate-arguments.js";
import {
  appendText,
  errorResult,
  isToolResult,
  toToolResult,
  type ToolResult,
} from "./result/tool-result.js";
import type { Run } from "./run/run.js";
import { isSurface, surfaces as builtInSurfaces, type Surface } from "./surface/surface.js";
import {
  defineTool,
  toolAvailability,
  toolInRun,
  type InputSchema,
  type Tool,
  type ToolDefinition,
} from "./tool/define-tool.js";
import { tierWithin } from "./tool/tier.js";
import type { CallOrigin, NestedCallOptions, ToolCheckContext, ToolContext } from "./tool/tool-context.js";
import type { InvokeRequest, RegistryOptions } from "./registry-options.js";
import { describeValue } from "./objects/describe-value.js";

interface Parent {
  readonly callId: string;
  readonly caller: string | undefined;
  readonly depth: number;
  readonly lanes: ReadonlySet<string>;
  readonly signal: AbortSignal;
  /** The parent call's tool, for the message refusing a call made after it ended. */
  readonly tool: string;
  /** True once the parent call has ended: a context kept past it calls nothing more. */
  readonly ended: () => boolean;
}

let callCounter = 0;

/** Ids of the calls of this process that have not ended: a harness's id is refused while one holds it. */
const liveCallIds = new Set<string>();

/** A harness's call id (the model's tool call id) is at most this long; a longer one is refused. */
export const maxCallIdLength = 256;

/** A fresh id, never one a call that has not ended holds (a harness may name its calls `call_…` too). */
function generatedCallId(): string {
  let id = `call_${++callCounter}`;
  while (liveCallIds.has(id)) id = `call_${++callCounter}`;
  return id;
}

/** A tool name that is no string, as a message names it (`String` throws for an object without a prototype). */
function toolNameOf(tool: unknown): string {
  try {
    return String(tool);
  } catch {
    return describeValue(tool);
  }
}

/** Why the harness's call id cannot be used, or undefined when it can (or none was given). */
function callIdProblem(callId: unknown): string | undefined {
  if (callId === undefined) return undefined;
  if (typeof callId !== "string" || callId === "" || callId.length > maxCallIdLength) {
    return `callId must be a non-empty string of at most ${maxCallIdLength} characters (the model's tool call id), not ${describeValue(callId)}`;
  }
  if (liveCallIds.has(callId)) {
    return `callId '${callId}' is the id of a call that has not ended; give each call its own id (the model's tool call id)`;
  }
  return undefined;
}

/**
 * The registry: holds tool definitions, decides which tools each surface of a run sees, and runs
 * every call through one chain — validation → guardrails → the tool's own check → approval gate →
 * the tool → result wrappers — whether the model or a kernel cell made it. `invoke` never throws:
 * every failure is a result with `isError` and a message the model can act on.
 */
export class Registry {
  private readonly toolsByName = new Map<string, Tool>();
  private readonly surfacesByName = new Map<string, Surface>();
  private readonly guardrails: Guardrail[];
  private readonly resultWrappers: ResultWrapper[];
  private readonly listeners = new Set<CallEventListener>();
  private approver: Approver | undefined;
  private readonly policy: ApprovalPolicy;
  private readonly maxDepth: number;
  private readonly noApproverHint: string;

  constructor(options: RegistryOptions = {}) {
    for (const surface of Object.values(builtInSurfaces)) this.surfacesByName.set(surface.name, surface);
    for (const surface of options.surfaces ?? []) this.addSurface(surface);
    this.guardrails = [workspaceContainment(), ...(options.guardrails ?? [])];
    this.resultWrappers = [...(options.resultWrappers ?? [])];
    this.approver = options.approver;
    this.policy = checkApprovalPolicy(options.approval);
    this.maxDepth = options.maxDepth ?? 4;
    if (!Number.isSafeInteger(this.maxDepth) || this.maxDepth < 0) {
      throw new ToolsError({
        code: "INVALID_DEFINITION",
        message: `maxDepth must be a whole number of 0 or more (0: no tool calls another), not ${String(options.maxDepth)}`,
      });
    }
    this.noApproverHint =
      options.noApproverHint ?? "Connect an approver to the registry, or use the approval policy 'auto'.";
    if (options.tools !== undefined && !Array.isArray(options.tools)) {
      throw new ToolsError({
        code: "INVALID_DEFINITION",
        message: `tools: ${describeValue(options.tools)} is not a list; pass tools: [tool, …]`,
      });
    }
    this.register(...(options.tools ?? []));
  }

  /**
   * A surface of the harness's own. One named as a built-in one, or as another of its own, is
   * refused: a `plan` of the harness's with a higher cap would show write tools to plan mode.
   */
  private addSurface(surface: Surface): void {
    if (!isSurface(surface)) {
      throw new ToolsError({
        code: "INVALID_DEFINITION",
        message: `surfaces: ${describeValue(surface)} is not a surface; make each one with defineSurface({ name, cap })`,
      });
    }
    if (this.surfacesByName.has(surface.name)) {
      const builtIn = Object.hasOwn(builtInSurfaces, surface.name);
      throw new ToolsError({
        code: "INVALID_DEFINITION",
        message: builtIn
          ? `surface '${surface.name}' is built in (main, plan, readonly, worker); give yours another name`
          : `a surface named '${surface.name}' is given twice; give each surface its own name`,
      });
    }
    this.surfacesByName.set(surface.name, surface);
  }

  /** Adds tools. A second tool with the same name is an error, never a silent replacement. */
  register(...tools: Tool[]): this {
    for (const given of tools) {
      // A tool not made by defineTool (a plain object, a definition) is checked as defineTool
      // checks: one without its requires list would break every later toolsFor.
      if (typeof given !== "object" || given === null) {
        throw new ToolsError({
          code: "INVALID_DEFINITION",
          message: `register: ${describeValue(given)} is not a tool; make each tool with defineTool({ … })`,
        });
      }
      const tool = isDefinedTool(given) ? given : defineTool(given as ToolDefinition<InputSchema>);
      if (this.toolsByName.has(tool.name)) {
        throw new ToolsError({
          code: "INVALID_DEFINITION",
          message: `a tool named '${tool.name}' is already registered`,
        });
      }
      this.toolsByName.set(tool.name, tool);
    }
    return this;
  }

  /** Adds a result wrapper at the end of the chain. */
  addResultWrapper(wrapper: ResultWrapper): this {
    this.resultWrappers.push(wrapper);
    return this;
  }

  /** Adds a guardrail after the existing ones. */
  addGuardrail(guardrail: Guardrail): this {
    this.guardrails.push(guardrail);
    return this;
  }

  /** Connects (or, with undefined, disconnects) the approver. */
  setApprover(approver: Approver | undefined): this {
    this.approver = approver;
    return this;
  }

  /** The approval policy in force. */
  get approvalPolicy(): ApprovalPolicy {
    return this.policy;
  }

  /** Every registered tool, wired or not. */
  allTools(): Tool[] {
    return [...this.toolsByName.values()];
  }

  /** The surface of that name; throws `UNKNOWN_SURFACE` listing the known ones. */
  surface(name: string | Surface): Surface {
    if (typeof name !== "string") {
      if (isSurface(name)) return name;
      throw new ToolsError({
        code: "UNKNOWN_SURFACE",
        message: `the surface is ${describeValue(name)}, not a surface: pass a surface's name (${[...this.surfacesByName.keys()].join(", ")}) or what defineSurface returned`,
      });
    }
    const surface = this.surfacesByName.get(name);
    if (!surface) {
      throw new ToolsError({
        code: "UNKNOWN_SURFACE",
        message: `unknown surface '${name}'; known surfaces: ${[...this.surfacesByName.keys()].join(", ")}`,
      });
    }
    return surface;
  }

  /** Exactly the tools this surface of this run sees: wired, within the surface's cap, not hidden from it. */
  toolsFor(run: Run, surface: string | Surface): Tool[] {
    const resolved = this.surface(surface);
    return this.allTools()
      .map((tool) => toolInRun(tool, run))
      .filter(
        (tool) =>
          tierWithin(tool.tier, resolved.cap) &&
          !resolved.hides?.has(tool.name) &&
          toolAvailability(tool, run).ok,
      );
  }

  /** The schema of a surface in a harness's format. */
  schema<F extends SchemaFormat = "json">(
    run: Run,
    surface: string | Surface,
    format?: F,
  ): ToolSchemaOf<F>[] {
    return exportTools(this.toolsFor(run, surface), format ?? ("json" as F));
  }

  /** Subscribes to call events; returns the unsubscribe function. */
  on(listener: CallEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs one call through the whole chain. Never throws. */
  invoke(run: Run, request: InvokeRequest): Promise<ToolResult> {
    // A harness passing something else (null, a string) gets an error result, not an exception.
    const problem = !looksLikeRun(run)
      ? `the run is ${describeValue(run)}, not a Run: pass the one createRun returned`
      : typeof request !== "object" || request === null || Array.isArray(request)
        ? `the request is ${describeValue(request)}, not an object: pass { tool, args }`
        : undefined;
    if (problem !== undefined) {
      return Promise.resolve(
        errorResult(new ToolsError({ code: "INVALID_REQUEST", message: `invoke: ${problem}` })),
      );
    }
    return this.call(run, request, undefined);
  }

  private emit(event: CallEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break calls.
      }
    }
  }

  private async call(run: Run, request: InvokeRequest, parent: Parent | undefined): Promise<ToolResult> {
    const started = performance.now();
    // Only a call the harness made names its id; a nested call's options carry none.
    const given = parent === undefined ? request.callId : undefined;
    const callIdRefused = callIdProblem(given);
    const callId = given !== undefined && callIdRefused === undefined ? given : generatedCallId();
    const origin: CallOrigin = request.origin ?? (parent ? "tool" : "model");
    const depth = parent ? parent.depth + 1 : 0;
    const toolName = typeof request.tool === "string" ? request.tool : toolNameOf(request.tool);
    const caller = typeof request.caller === "string" ? request.caller : parent?.caller;
    let surfaceName =
      typeof request.surface === "string" ? request.surface : (request.surface?.name ?? "main");
    // Held from here: every way on to the end of this function releases it.
    liveCallIds.add(callId);
    const observed = this.listeners.size > 0;
    if (observed) {
      this.emit({
        type: "call-start",
        callId,
        parentCallId: parent?.callId,
        tool: toolName,
        surface: surfaceName,
        origin,
        depth,
        caller,
        runId: run.id,
        startedAt: started,
      });
    }
    const waited = { ms: 0 };
    let result: ToolResult;
    try {
      if (callIdRefused !== undefined) {
        throw new ToolsError({
          code: "INVALID_REQUEST",
          message: `${toolName} was not called: ${callIdRefused}`,
        });
      }
      const surface = this.surface(request.surface ?? "main");
      surfaceName = surface.name;
      result = await this.chain(run, request, parent, {
        callId,
        origin,
        depth,
        surface,
        toolName,
        waited,
        caller,
        receiveSecret: typeof request.receiveSecret === "function" ? request.receiveSecret : undefined,
      });
    } catch (error) {
      result = errorResult(error);
    }
    liveCallIds.delete(callId);
    if (observed) {
      this.emit({
        type: "call-end",
        callId,
        tool: toolName,
        surface: surfaceName,
        origin,
        isError: result.isError,
        code: result.error?.code,
        durationMs: performance.now() - started,
        waitedMs: waited.ms,
      });
    }
    return result;
  }

  private async chain(
    run: Run,
    request: InvokeRequest,
    parent: Parent | undefined,
    meta: CallMeta,
  ): Promise<ToolResult> {
    const { depth, surface, toolName } = meta;
    if (run.disposed) {
      throw new ToolsError({
        code: "RUN_DISPOSED",
        message: `run ${run.id} has ended; ${toolName} was not called`,
      });
    }
    if (parent?.ended()) {
      throw new ToolsError({
        code: "INVALID_REQUEST",
        message: `${toolName} was not called: the ${parent.tool} call (${parent.callId}) it came from has ended; a tool calls other tools only while its own call runs`,
      });
    }
    if (depth > this.maxDepth) {
      throw new ToolsError({
        code: "REENTRY_DEPTH",
        message: `${toolName} was not called: tool calls nested ${depth} deep, the limit is ${this.maxDepth}`,
      });
    }
    const defined = this.toolsByName.get(toolName);
    if (!defined) {
      throw unknownTool(
        toolName,
        this.toolsFor(run, surface).map((candidate) => candidate.name),
        surface,
      );
    }
    const tool = toolInRun(defined, run);
    if (surface.hides?.has(tool.name)) throw hiddenFromSurface(tool.name, surface);
    if (!tierWithin(tool.tier, surface.cap)) throw tierExceeded(tool, surface);
    const availability = toolAvailability(tool, run);
    if (!availability.ok) throw notWired(tool, availability.reason);

    const validation = validateArguments(tool, request.args);
    if (!validation.ok) throw new ToolsError({ code: "INVALID_ARGUMENTS", message: validation.message });

    const signals = [run.signal, request.signal, parent?.signal].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    // A signal of the call's own, also when only the run's would do: what a tool hangs on it
    // goes with the call instead of piling up on the run's signal, which every call shares.
    const own = callSignal(signals);
    try {
      return await this.checkedCall(run, parent, meta, tool, validation.input, own.signal);
    } finally {
      own.unlink();
    }
  }

  /** The chain from the guardrails on, for a call whose tool and arguments are valid. */
  private async checkedCall(
    run: Run,
    parent: Parent | undefined,
    meta: CallMeta,
    tool: Tool,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const { callId, origin, depth, surface, waited, caller, receiveSecret } = meta;
    const resolvedPaths = new Map<string, string>();
    const call: CallInfo = {
      callId,
      tool,
      input,
      run,
      surface,
      origin,
      depth,
      signal,
      caller,
      resolvedPaths,
    };
    const resolvePath = (path: string): string =>
      resolvedPaths.get(path) ?? resolveInside(run.workingDirectory, path);
    const checkContext: ToolCheckContext = {
      run,
      surface,
      signal,
      callId,
      origin,
      depth,
      caller,
      resolvePath,
    };

    // The call's turn in its tool's lane is taken as it arrives: a caller's serial calls run in
    // the order they came, not the order in which their cards are answered (`continue` must not
    // overtake the `stack` asked before it); another caller's calls do not wait on that card.
    const callerName = `${surface.name}\u0000${caller ?? ""}`;
    const ticket = reserveLane(run, tool, parent?.lanes ?? noLanes, callerName);
    // The caller's earlier unfinished calls, which a refused check waits for (see checkCall).
    const callerCall = enterCallerCall(run, tool, `${callerName}\u0000${parent?.callId ?? ""}`);
    let judged: number;
    let checkedEarly = false;
    let entry: LaneEntry;
    try {
      for (const guardrail of this.guardrails) {
        // Most guardrails answer synchronously: awaiting only a promise saves a microtask per call.
        const checked = guardrail.check(call);
        if (checked) await checked;
      }
      // The tool's own check: a call that cannot succeed in the run's state fails now with the
      // tool's error, before the operator is asked to approve it (and before it waits its turn).
      // Not while an earlier call of the same caller to this serial tool has yet to finish: that
      // call may change what this one finds (they run in the order they came), so it is checked
      // when its turn comes.
      checkedEarly = tool.check !== undefined && !ticket.callerAhead;
      // A serial call refused is refused at once: waiting, it would hold its caller's turn in the
      // lane, where a call nested in the earlier one it waits for would wait behind it forever.
      if (checkedEarly)
        await checkCall(tool, input, checkContext, tool.parallelSafe ? callerCall.earlier : [], waited);
      judged = waited.ms;

      if (needsApproval(call, this.policy, this)) {
        const asked = performance.now();
        const approval = (state: "asked" | "answered"): void => {
          if (this.listeners.size > 0)
            this.emit({ type: "call-approval", callId, tool: tool.name, state, caller });
        };
        // Told only when a card is open: a call refused for want of an approver never waited.
        let opened = false;
        try {
          await requestApproval(call, this, this.approver, this.noApproverHint, () => {
            opened = true;
            approval("asked");
          });
        } finally {
          if (opened) approval("answered");
        }
        waited.ms += performance.now() - asked;
      }
      if (signal.aborted) throw cancelledCall(tool.name, signal);

      const entered = ticket.enter(signal);
      entry = entered instanceof Promise ? await entered : entered;
    } catch (error) {
      ticket.cancel();
      callerCall.finish();
      throw error;
    }
    const { lanes, release, waitedMs } = entry;
    waited.ms += waitedMs;

    let result: ToolResult;
    let ended = false;
    try {
      // A call that waited (the operator's card, its lane) is judged again as it starts: a path
      // swapped meanwhile for a symlink out of the working directory is refused, not followed.
      const rejudged = waited.ms > judged;
      if (rejudged) {
        resolvedPaths.clear();
        for (const guardrail of this.guardrails) await guardrail.check(call);
      }
      // The state the tool checked may have changed as well (a worker finished, a limit reached);
      // a call whose check waited for the caller's earlier calls is checked now, once.
      if (tool.check && (rejudged || !checkedEarly)) await checkCall(tool, input, checkContext);
      if (rejudged && signal.aborted) throw cancelledCall(tool.name, signal);
      for (const wrapper of this.resultWrappers) {
        try {
          wrapper.begin?.(call);
        } catch {
          // A broken hook must not break the call; its wrap still runs.
        }
      }
      const self: Parent = { callId, caller, depth, lanes, signal, tool: tool.name, ended: () => ended };
      const context: ToolContext = {
        ...checkContext,
        ...(receiveSecret === undefined ? {} : { receiveSecret }),
        invoke: (name: string, args: unknown, options: NestedCallOptions = {}) =>
          this.call(
            run,
            {
              tool: name,
              args,
              surface,
              origin: options.origin ?? "tool",
              signal: options.signal,
              ...(options.receiveSecret === undefined ? {} : { receiveSecret: options.receiveSecret }),
            },
            self,
          ),
        progress: (message: string) => {
          // After its call-end, progress would be told of a call that is over.
          if (!ended && this.listeners.size > 0)
            this.emit({ type: "call-progress", callId, tool: tool.name, message });
        },
      };
      try {
        result = withAbsoluteChanges(toToolResult(await tool.execute(call.input as never, context)), run);
      } catch (error) {
        result = errorResult(
          signal.aborted && !ToolsError.isInstance(error) ? cancelledCall(tool.name, signal) : error,
        );
      }
    } finally {
      ended = true;
      release?.();
      callerCall.finish();
    }
    for (const wrapper of this.resultWrappers) {
      try {
        const wrapped = await wrapper.wrap(result, call);
        // A wrapper returning nothing keeps the result it was given (and the next wrapper runs).
        result = isToolResult(wrapped)
          ? wrapped
          : appendText(result, `(${wrapper.name} could not run: it returned no result)`);
      } catch (error) {
        result = appendText(result, `(${wrapper.name} could not run: ${errorMessage(error)})`);
      }
    }
    return result;
  }
}

/**
 * Runs the tool's `check` of a call, bounded by the call's signal: a ToolsError it throws refuses
 * the call as it is; anything else it throws is a `TOOL_FAILED` naming the check, and a call
 * cancelled meanwhile is cancelled. A call refused while `earlier` calls of its caller have yet to
 * finish is checked again once they have: sent together, a `vibe_kill` makes room for the
 * `vibe_spawn` after it, as it did when both went to the operator's cards. The wait is added to
 * `waited`.
 */
async function checkCall(
  tool: Tool,
  input: Record<string, unknown>,
  context: ToolCheckContext,
  earlier: readonly Promise<void>[] = [],
  waited?: { ms: number },
): Promise<void> {
  try {
    await checkOnce(tool, input, context);
  } catch (error) {
    if (earlier.length === 0 || !ToolsError.isInstance(error) || context.signal.aborted) throw error;
    const started = performance.now();
    await rejectOnAbort(Promise.all(earlier), context.signal).catch(() => {
      throw cancelledCall(tool.name, context.signal);
    });
    if (waited) waited.ms += performance.now() - started;
    await checkOnce(tool, input, context);
  }
}

/** One run of the tool's check (see checkCall). */
async function checkOnce(
  tool: Tool,
  input: Record<string, unknown>,
  context: ToolCheckContext,
): Promise<void> {
  let answer: unknown;
  try {
    const checked: unknown = tool.check?.(input as never, context);
    answer =
      typeof (checked as PromiseLike<unknown> | undefined)?.then === "function"
        ? await rejectOnAbort(Promise.resolve(checked), context.signal)
        : checked;
  } catch (error) {
    if (context.signal.aborted) throw cancelledCall(tool.name, context.signal);
    if (ToolsError.isInstance(error)) throw error;
    throw new ToolsError({
      code: "TOOL_FAILED",
      message: `${tool.name} was not called: its check of the call failed (${errorMessage(error)})`,
      cause: error,
    });
  }
  // TypeScript lets a check typed to answer true or false stand where nothing is answered: a
  // `false` read as "go ahead" would let through the very call it meant to refuse.
  if (answer !== undefined) {
    throw new ToolsError({
      code: "TOOL_FAILED",
      message: `${tool.name} was not called: its check answered ${describeValue(answer)}; a tool's check refuses a call by throwing a ToolsError and answers nothing otherwise`,
    });
  }
}

/** What the chain knows of a call before its tool runs. */
interface CallMeta {
  callId: string;
  origin: CallOrigin;
  depth: number;
  surface: Surface;
  toolName: string;
  /** Time spent waiting (the approval card, the lane), in milliseconds; the chain adds to it. */
  waited: { ms: number };
  caller: string | undefined;
  /** Where a secret the tool asks a human for goes, when the caller asked for one. */
  receiveSecret: ((value: string) => void) | undefined;
}

/**
 * Creates a registry. See {@link Registry}. Throws `INVALID_APPROVAL_POLICY` for an approval
 * policy other than `ask` or `auto`, and `INVALID_DEFINITION` for two tools of one name.
 */
export function createRegistry(options: RegistryOptions = {}): Registry {
  return new Registry(options);
}

/** A run as the chain uses it (duck-typed: a second copy of this package makes its own class). */
function looksLikeRun(run: unknown): run is Run {
  const candidate = run as Partial<Run> | null | undefined;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.workingDirectory === "string" &&
    typeof candidate.get === "function"
  );
}

/** A tool as defineTool returns it (duck-typed: a second copy of this package makes its own). */
function isDefinedTool(value: unknown): value is Tool {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.isFrozen(value) &&
    Array.isArray((value as Partial<Tool>).requires) &&
    typeof (value as Partial<Tool>).execute === "function"
  );
}

/**
 * The result with each changed file named by its absolute path: a tool's relative one is taken
 * from the working directory (what diagnostics-on-write and the ledger key on are absolute).
 */
function withAbsoluteChanges(result: ToolResult, run: Run): ToolResult {
  if (result.changedFiles.every((file) => isAbsolute(file))) return result;
  return { ...result, changedFiles: result.changedFiles.map((file) => resolve(run.workingDirectory, file)) };
}
