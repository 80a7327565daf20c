import { ToolsError } from "../errors/tools-error.js";
import { stateKey } from "../run/resource-key.js";
import type { Run } from "../run/run.js";
import type { Tool } from "../tool/define-tool.js";
import { SerialLane } from "./serial-lane.js";

/** The serial lanes of a run, one per (conversation, tool). */
const lanesKey = stateKey("serial lanes", () => new Map<string, SerialLane>());

/** No lanes held: a call from the model. */
export const noLanes: ReadonlySet<string> = new Set();

/** A call's place in its lane: what it holds now, and how to let the next call in. */
export interface LaneEntry {
  /** Lanes held by this call and its callers (passed on to nested calls). */
  readonly lanes: ReadonlySet<string>;
  /** Lets the next call in; undefined for a parallel-safe tool. */
  readonly release: (() => void) | undefined;
  /** Time spent waiting for the lane, in milliseconds. */
  readonly waitedMs: number;
}

/** A call's place in its tool's lane, taken as it arrives: enter it later, or give it up. */
export interface LaneTicket {
  /** Waits for the turn (a parallel-safe tool's entry is returned as it is, without a promise). */
  enter(signal: AbortSignal): LaneEntry | Promise<LaneEntry>;
  /** Gives the place up (the call will not run); the next call's turn comes as it would have. */
  cancel(): void;
}

/** The ticket of every parallel-safe call from the model: nothing held, nothing to wait for. */
const freeTicket: LaneTicket = {
  enter: () => ({ lanes: noLanes, release: undefined, waitedMs: 0 }),
  cancel: () => {},
};

/**
 * Takes a place in a tool's serial lane when it is not parallel-safe (one call at a time per run
 * and conversation, in arrival order — the order the calls come in, not the order in which their
 * approval cards are answered). A call into a lane its caller already holds is refused with
 * `LANE_REENTRY` at once, instead of waiting for itself forever.
 */
export function reserveLane(run: Run, tool: Tool, held: ReadonlySet<string>): LaneTicket {
  // A parallel-safe tool enters at once (this runs on every call).
  if (tool.parallelSafe) {
    return held === noLanes
      ? freeTicket
      : { enter: () => ({ lanes: held, release: undefined, waitedMs: 0 }), cancel: () => {} };
  }
  const laneId = `${run.conversationId}\u0000${tool.name}`;
  if (held.has(laneId)) {
    throw new ToolsError({
      code: "LANE_REENTRY",
      message: `${tool.name} cannot be called from inside its own call: it runs one call at a time`,
    });
  }
  const laneMap = run.state(lanesKey);
  let lane = laneMap.get(laneId);
  if (!lane) {
    lane = new SerialLane();
    laneMap.set(laneId, lane);
  }
  const place = lane.reserve();
  return {
    enter: async (signal) => {
      const queued = performance.now();
      const release = await place.wait(signal);
      return { lanes: new Set([...held, laneId]), release, waitedMs: performance.now() - queued };
    },
    cancel: () => place.cancel(),
  };
}
