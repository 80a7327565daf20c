import { ToolsError } from "../errors/tools-error.js";
import type { Tier } from "../tool/tier.js";
import type { CallOrigin } from "../tool/tool-context.js";

/** What the approval gate asks: enough to draw a card ("Allow ast_edit: stage 12 replacements?"). */
export interface ApprovalRequest {
  readonly callId: string;
  readonly tool: string;
  readonly tier: Tier;
  readonly surface: string;
  readonly origin: CallOrigin;
  /** One line: the tool's own summary, or its arguments, shortened. */
  readonly summary: string;
  /** The validated arguments. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly runId: string;
  readonly conversationId: string;
  /** Who is calling, in words ("worker w2 \"rename\""), when the harness said; else undefined. */
  readonly caller?: string | undefined;
}

/**
 * The approver's answer. `remember: "run"` allows this tool for the rest of the run, to the same
 * surface and caller (a background worker's calls are not allowed by the main agent's answer).
 */
export type ApprovalDecision =
  | { readonly allow: true; readonly remember?: "once" | "run" }
  | { readonly allow: false; readonly reason?: string };

/**
 * Who answers approval requests (a human at a terminal, a harness UI). With none attached, write
 * and exec calls that need approval are denied: the gate fails closed.
 */
export interface Approver {
  /** Is someone there to answer right now? */
  attached(): boolean;
  /** Asks; resolves with the decision. Must settle when `signal` aborts. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * `ask`: every write and exec call goes to the approver. `auto`: calls the surface permits run
 * without asking, except on gated surfaces (a background worker), which always ask.
 */
export type ApprovalPolicy = "ask" | "auto";

/** Every approval policy, with what it means, for the message that refuses an unknown one. */
const policyMeanings: Readonly<Record<ApprovalPolicy, string>> = {
  ask: "write and exec calls go to the approver",
  auto: "calls the surface permits run without asking, except on gated surfaces",
};

/**
 * The policy itself when it is one the registry knows; `undefined` (or `null`) means the default,
 * `ask`. Anything else (`"Ask"`, `"deny"`, `"never"`) throws `INVALID_APPROVAL_POLICY` listing the
 * valid ones: a policy the gate does not know must never run write or exec tools unasked.
 */
export function checkApprovalPolicy(policy: unknown): ApprovalPolicy {
  if (policy === undefined || policy === null) return "ask";
  if (typeof policy === "string" && Object.hasOwn(policyMeanings, policy)) return policy as ApprovalPolicy;
  const valid = Object.keys(policyMeanings);
  const shown =
    typeof policy === "string" || typeof policy === "number" || typeof policy === "boolean"
      ? JSON.stringify(policy)
      : `of type ${typeof policy}`;
  throw new ToolsError({
    code: "INVALID_APPROVAL_POLICY",
    message:
      `unknown approval policy ${shown}; valid policies: ` +
      Object.entries(policyMeanings)
        .map(([name, meaning]) => `"${name}" (${meaning})`)
        .join(", "),
    data: { policy, valid },
  });
}
