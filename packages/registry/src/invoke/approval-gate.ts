import { ToolsError, errorMessage } from "../errors/tools-error.js";
import { stateKey } from "../run/resource-key.js";
import type { Tool } from "../tool/define-tool.js";
import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, Approver } from "./approval.js";
import type { CallInfo } from "./guardrail.js";
import { cancelledCall } from "./refusals.js";
import { rejectOnAbort } from "./reject-on-abort.js";

/**
 * Tools the approver allowed "for this run", per run and per registry that asked, each for the
 * surface and caller it was allowed to: the main agent's "allow for the run" does not open the
 * tool to a background worker, nor one worker's to another, nor another registry's tool of that
 * name (its own definition, approver and policy) on the same run.
 */
const allowedForRun = stateKey("approvals remembered for the run", () => new WeakMap<object, Set<string>>());

/** The approvals `registry` remembers for the call's run. */
function remembered(call: CallInfo, registry: object): Set<string> {
  const byRegistry = call.run.state(allowedForRun);
  let allowed = byRegistry.get(registry);
  if (allowed === undefined) {
    allowed = new Set();
    byRegistry.set(registry, allowed);
  }
  return allowed;
}

function rememberKey(call: CallInfo): string {
  return `${call.surface.name}\u0000${call.caller ?? ""}\u0000${call.tool.name}`;
}

/** True when this call must be approved before it runs (`registry`: the one running it). */
export function needsApproval(call: CallInfo, policy: ApprovalPolicy, registry: object): boolean {
  if (call.tool.tier === "read") return false;
  // Only `auto` lifts the gate, and never on a gated surface: any other value asks (fails closed).
  if (policy === "auto" && !call.surface.gated) return false;
  return !remembered(call, registry).has(rememberKey(call));
}

function summarize(tool: Tool, input: Record<string, unknown>): string {
  if (tool.summarize) {
    try {
      // Nothing to show (undefined, "", not text) reads as the arguments, never as "undefined".
      const summary: unknown = tool.summarize(input);
      if (typeof summary === "string" && summary.trim() !== "") return summary;
    } catch {
      // Fall back to the arguments.
    }
  }
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    text = "(arguments not printable)";
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * Asks the approver. Fails closed: no approver, or none attached, means deny; an approver that
 * throws means deny.
 */
export async function requestApproval(
  call: CallInfo,
  registry: object,
  approver: Approver | undefined,
  noApproverHint: string,
  onAsked: () => void = () => undefined,
): Promise<void> {
  const what = `${call.tool.name} (${call.tool.tier} tool, called by ${call.caller ?? call.surface.label})`;
  if (!approver || !isAttached(approver)) {
    throw new ToolsError({
      code: "NO_APPROVER",
      message: `${what} needs approval and no approver is attached, so it was denied. ${noApproverHint}`,
      data: { tool: call.tool.name },
    });
  }
  const request: ApprovalRequest = {
    callId: call.callId,
    tool: call.tool.name,
    tier: call.tool.tier,
    surface: call.surface.name,
    origin: call.origin,
    summary: summarize(call.tool, call.input),
    input: call.input,
    runId: call.run.id,
    conversationId: call.run.conversationId,
    caller: call.caller,
  };
  let answer: unknown;
  onAsked();
  try {
    // Raced against the call's signal: an approver that does not settle on abort (its contract)
    // must not keep a cancelled call, or a run's end, waiting on its card for ever.
    answer = await rejectOnAbort(Promise.resolve(approver.request(request, call.signal)), call.signal);
  } catch (error) {
    if (call.signal.aborted) throw cancelledCall(call.tool.name, call.signal);
    throw new ToolsError({
      code: "APPROVAL_DENIED",
      message: `${what} was not approved: the approver failed (${errorMessage(error)})`,
      cause: error,
    });
  }
  // Cancelled while its card was open (a cancel, the run's end): the operator refused nothing.
  if (call.signal.aborted) throw cancelledCall(call.tool.name, call.signal);
  const decision = readDecision(answer, what);
  if (!decision.allow) {
    const reason =
      typeof decision.reason === "string" && decision.reason !== "" ? `: ${decision.reason}` : "";
    throw new ToolsError({
      code: "APPROVAL_DENIED",
      message: `the operator denied ${what}${reason}. Do not repeat the same call; choose another approach or ask the operator.`,
      data: { tool: call.tool.name },
    });
  }
  if (decision.remember === "run") remembered(call, registry).add(rememberKey(call));
}

/** `attached()` of an approver, false when it has none (fails closed) or it throws. */
function isAttached(approver: Approver): boolean {
  try {
    return typeof approver.attached === "function" && approver.attached() === true;
  } catch {
    return false;
  }
}

/**
 * The approver's answer as a decision. Only `allow: true` allows (a truthy `"no"` must not); an
 * answer that is no decision at all (undefined, a boolean) is a denial naming what came back.
 */
function readDecision(answer: unknown, what: string): ApprovalDecision {
  if (typeof answer === "object" && answer !== null && "allow" in answer) {
    const { allow, remember, reason } = answer as { allow: unknown; remember?: unknown; reason?: unknown };
    if (allow === true) return remember === "run" ? { allow: true, remember: "run" } : { allow: true };
    if (allow === false) return typeof reason === "string" ? { allow: false, reason } : { allow: false };
  }
  throw new ToolsError({
    code: "APPROVAL_DENIED",
    message: `${what} was not approved: the approver answered ${describeAnswer(answer)} instead of { allow: true } or { allow: false }`,
  });
}

function describeAnswer(answer: unknown): string {
  if (answer === null || answer === undefined) return String(answer);
  if (typeof answer !== "object") return `${typeof answer} ${JSON.stringify(answer)}`;
  const allow: unknown = (answer as { allow?: unknown }).allow;
  return "allow" in answer
    ? `allow: ${typeof allow === "string" ? JSON.stringify(allow) : String(allow)}`
    : "an object without allow";
}
