import type { Approver, ApprovalPolicy } from "./invoke/approval.js";
import type { Guardrail, ResultWrapper } from "./invoke/guardrail.js";
import type { Surface } from "./surface/surface.js";
import type { Tool } from "./tool/define-tool.js";
import type { CallOrigin } from "./tool/tool-context.js";

/** Options of {@link createRegistry}. */
export interface RegistryOptions {
  /** The tools; more can be added with {@link Registry.register}. */
  tools?: readonly Tool[];
  /** Surfaces of the harness's own, besides main, plan, readonly and worker. */
  surfaces?: readonly Surface[];
  /** Who answers approval requests; can be set later with {@link Registry.setApprover}. */
  approver?: Approver;
  /**
   * `ask` (default): write and exec calls need approval. `auto`: only on gated surfaces. Any other
   * value makes {@link createRegistry} throw `INVALID_APPROVAL_POLICY`.
   */
  approval?: ApprovalPolicy;
  /** Guardrails run after workspace containment (which is always first and always on). */
  guardrails?: readonly Guardrail[];
  /** Result wrappers, in order (diagnostics-on-write goes here). */
  resultWrappers?: readonly ResultWrapper[];
  /** Deepest re-entry allowed (a tool calling a tool calling …); default 4. */
  maxDepth?: number;
  /** Appended to the fail-closed message: how to attach an approver in this harness. */
  noApproverHint?: string;
}

/** One call as the harness (or a tool re-entering) makes it. */
export interface InvokeRequest {
  /** Tool name as the model gave it. */
  tool: string;
  /** Arguments as the model gave them: validated, never trusted. */
  args?: unknown;
  /** Who is calling; default the main agent. */
  surface?: string | Surface;
  /** Default `model`. */
  origin?: CallOrigin;
  /** Cancels the call. */
  signal?: AbortSignal;
  /**
   * The call's id in its events, its approval request and its tool's context: pass the model's
   * tool call id (`toolu_…`, `call_…`) to tie a card or a progress line to the call a transcript
   * shows. A non-empty string of at most 256 characters that no call of this process which has not
   * ended holds (else the call is refused, `INVALID_REQUEST`); default a generated `call_<n>`. The
   * generated ones are held too: a harness numbering its own ids `call_1`, `call_2`, … can meet one
   * of them (a nested call's, a worker's) and be refused; give ids of another form.
   * Calls a tool makes get ids of their own, with this one as their `parentCallId`.
   */
  callId?: string;
  /**
   * Who is calling, in words, when the surface alone does not say ("worker w2 \"rename\"").
   * Shown on approval cards and in events; nested calls inherit it.
   */
  caller?: string;
  /**
   * The call asks a human for a secret, which goes to this function instead of into the result
   * (see {@link NestedCallOptions.receiveSecret}); a harness asking for one (an API key) may pass it.
   */
  receiveSecret?: (value: string) => void;
}
