import type { ToolResult } from "../result/tool-result.js";
import type { Run } from "../run/run.js";
import type { Surface } from "../surface/surface.js";

/**
 * Where a call came from: the model, a kernel cell (`tool("read", …)` in eval), or another tool.
 * Recorded on every call; the wrapper chain is the same for all three.
 */
export type CallOrigin = "model" | "cell" | "tool";

/** Options of a re-entrant call made from inside a tool. */
export interface NestedCallOptions {
  /** Default `tool`; eval passes `cell` for calls a cell makes. */
  origin?: CallOrigin;
  /** Cancels the nested call; it is also cancelled with the parent call. */
  signal?: AbortSignal;
  /**
   * Marks the call as asking a human for a secret (a cell's `getpass()`), and takes the secret out
   * of band: the tool hands what the human typed to this function instead of putting it in its
   * result, so no transcript, log or result wrapper sees it. A tool that asks a human (ask_user)
   * hides what is typed and never shows it back. Not an argument: a model cannot set it.
   */
  receiveSecret?: (value: string) => void;
}

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  readonly run: Run;
  readonly surface: Surface;
  /** Aborted when the call is cancelled or the run ends. */
  readonly signal: AbortSignal;
  /**
   * Unique among the calls of this process that have not ended: the harness's id for the call
   * (`InvokeRequest.callId`, the model's tool call id) or a generated `call_<n>`.
   */
  readonly callId: string;
  readonly origin: CallOrigin;
  /** 0 for a call from the model; one more for each re-entry. */
  readonly depth: number;
  /**
   * Who is calling, in words, when the harness said (`InvokeRequest.caller`, e.g. a background
   * worker `worker w2 "writer"`); nested calls inherit it. Undefined: the surface says it all.
   */
  readonly caller?: string | undefined;
  /**
   * Present when the caller asks for a secret ({@link NestedCallOptions.receiveSecret}): hand the
   * secret here, keep it out of the result and never show it back. Not inherited by nested calls.
   */
  readonly receiveSecret?: ((value: string) => void) | undefined;
  /**
   * Calls another tool through the registry with the same run and surface: validation,
   * guardrails, approval and result wrappers apply exactly as for a model's call.
   */
  invoke(tool: string, args: unknown, options?: NestedCallOptions): Promise<ToolResult>;
  /** Reports progress ("starting gopls…") to whoever watches the call. */
  progress(message: string): void;
  /** An argument path resolved inside the working directory (already checked by the guardrail). */
  resolvePath(path: string): string;
}

/**
 * What a tool's `check` receives besides its arguments: the call as `execute` would get it, less
 * what only a running call does (`invoke`, `progress`, `receiveSecret`).
 */
export type ToolCheckContext = Pick<
  ToolContext,
  "run" | "surface" | "signal" | "callId" | "origin" | "depth" | "caller" | "resolvePath"
>;
