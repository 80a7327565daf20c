import type { AdapterId } from "../adapters/detect-adapter.js";
import type { FramePage } from "./inspection.js";
import type { StopInfo } from "./session-state.js";

// The ids and references of one stop: what a resume drops and a refused resume gives back.

/** What {@link SessionCore.invalidate} drops: the ids and references of one stop. */
export interface StopSnapshot {
  readonly validFrames: Set<number>;
  readonly listedThreads: Set<number>;
  readonly stopPage: FramePage | undefined;
  readonly validReferences: Set<number>;
  readonly childCounts: Map<number, ChildCount>;
  readonly alsoStopped: Map<number, StopInfo>;
  readonly framesByPlace: Map<string, number>;
  readonly adapterFrames: Map<number, number>;
  readonly adapterReferences: Map<number, number>;
  readonly scopeFrames: Map<number, ScopeOrigin>;
  readonly scopesFrame: number | undefined;
}

/** Where a scope's reference came from: the frame (the adapter's id and the tool's) and the scope's name. */
export interface ScopeOrigin {
  readonly frame: number;
  /** The frame id the tool showed: the same at every listing of the stop, unlike delve's own. */
  readonly shownFrame: number;
  readonly name: string;
}

/**
 * The adapters whose frame ids and references cannot be shown as they are: delve numbers a
 * stop's frames anew at every listing, and frames and references from 1000 again at every stop;
 * lldb-dap numbers frames by their place in the stack (thread and depth) and references from the
 * same start at every stop. An id from an earlier stop would name something of the current one.
 * They get the tool's own ids instead, counted over the whole session, never reused.
 */
export function renumbersIds(adapterId: AdapterId): boolean {
  return adapterId === "delve" || adapterId === "lldb";
}

/** A reference's children as the adapter counts them (`indexedVariables`, `namedVariables`). */
export interface ChildCount {
  readonly indexed: number | undefined;
  readonly named: number | undefined;
}
