import type { CallOrigin } from "../tool/tool-context.js";

/** A call entered the chain (before validation). */
export interface CallStartEvent {
  readonly type: "call-start";
  readonly callId: string;
  readonly parentCallId: string | undefined;
  readonly tool: string;
  readonly surface: string;
  readonly origin: CallOrigin;
  readonly depth: number;
  /** Who is calling, in words, when the harness said. */
  readonly caller?: string | undefined;
  readonly runId: string;
  /** `performance.now()` at the start, in milliseconds. */
  readonly startedAt: number;
}

/** A tool reported progress ("starting gopls…"). */
export interface CallProgressEvent {
  readonly type: "call-progress";
  readonly callId: string;
  readonly tool: string;
  readonly message: string;
}

/**
 * A call went to the approver (`asked`: its card is open) or came back from it (`answered`,
 * allowed or not): a harness can show that the caller waits for the operator.
 */
export interface CallApprovalEvent {
  readonly type: "call-approval";
  readonly callId: string;
  readonly tool: string;
  readonly state: "asked" | "answered";
  /** Who is calling, in words, when the harness said. */
  readonly caller?: string | undefined;
}

/** A call left the chain, with its outcome and timing. */
export interface CallEndEvent {
  readonly type: "call-end";
  readonly callId: string;
  readonly tool: string;
  readonly surface: string;
  readonly origin: CallOrigin;
  readonly isError: boolean;
  /** The error code when the call failed or was refused. */
  readonly code: string | undefined;
  /** Wall time through the whole chain, in milliseconds. */
  readonly durationMs: number;
  /** Time spent waiting in a serial lane and for approval, in milliseconds (part of durationMs). */
  readonly waitedMs: number;
}

/** Every event the registry emits, for transcripts, progress display and benchmarks. */
export type CallEvent = CallStartEvent | CallProgressEvent | CallApprovalEvent | CallEndEvent;

/** Receives call events. Must not throw (a throwing listener is ignored). */
export type CallEventListener = (event: CallEvent) => void;
