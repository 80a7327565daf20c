import type { Run } from "../run/run.js";
import type { Surface } from "../surface/surface.js";
import type { Tool } from "../tool/define-tool.js";
import type { CallOrigin } from "../tool/tool-context.js";
import type { ToolResult } from "../result/tool-result.js";

/** A validated call, as guardrails, the approval gate and result wrappers see it. */
export interface CallInfo {
  readonly callId: string;
  readonly tool: Tool;
  /** The validated arguments (zod's output). */
  readonly input: Record<string, unknown>;
  readonly run: Run;
  readonly surface: Surface;
  readonly origin: CallOrigin;
  readonly depth: number;
  readonly signal: AbortSignal;
  /** Who is calling, in words, when the harness said (see InvokeRequest.caller). */
  readonly caller?: string | undefined;
  /**
   * Path arguments already resolved inside the working directory during this call (by workspace
   * containment), so the tool's `ctx.resolvePath` does not resolve them again.
   */
  readonly resolvedPaths?: Map<string, string>;
}

/**
 * A check every call passes before approval. Throw a ToolsError (code `GUARDRAIL_REFUSED`) saying
 * what is refused and what to do instead; return normally to let the call go on. A call that then
 * waited (for the operator, for its lane) is checked again as it starts, so keep checks free of
 * side effects.
 */
export interface Guardrail {
  readonly name: string;
  check(call: CallInfo): void | Promise<void>;
}

/**
 * Runs after the tool, on its result: diagnostics-on-write appends newly introduced diagnostics
 * for `result.changedFiles`. A wrapper that throws does not fail the call (the tool's work is
 * done); its error is appended to the result as a note.
 */
export interface ResultWrapper {
  readonly name: string;
  /**
   * Called as the tool starts (after approval and its lane, right before `execute`), with the
   * same `call` its `wrap` gets: every call `begin` saw is wrapped, whatever the tool does. For
   * what must hold while the tool runs (diagnostics-on-write marks the files a write names as
   * being written, so a parallel call's check does not take them for the state before). Must not
   * block; a hook that throws is ignored. A wrapper that forwards to another forwards `begin` for
   * exactly the calls it forwards `wrap` for (what `begin` holds, `wrap` lets go of).
   */
  begin?(call: CallInfo): void;
  wrap(result: ToolResult, call: CallInfo): ToolResult | Promise<ToolResult>;
}
