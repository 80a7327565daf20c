import { ToolsError } from "../errors/tools-error.js";
import { stateKey } from "../run/resource-key.js";
import type { Run } from "../run/run.js";
import type { Tool } from "../tool/define-tool.js";
import { cancelledCall } from "./refusals.js";
import { SerialLane, untilOrCancelled } from "./serial-lane.js";

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
  /**
   * Whether an earlier call of the same caller in this lane has not finished yet: what it does may
   * change what this call's tool would check now (a `remove` of what the `add` before it creates).
   */
  readonly callerAhead: boolean;
}

/** The ticket of every parallel-safe call from the model: nothing held, nothing to wait for. */
const freeTicket: LaneTicket = {
  enter: () => ({ lanes: noLanes, release: undefined, waitedMs: 0 }),
  cancel: () => {},
  callerAhead: false,
};

/** Per lane and caller: settles once the caller's latest call has entered the lane (or given up). */
const callerTurnsKey = stateKey("serial lane caller turns", () => new Map<string, Promise<void>>());

/** Per lane and caller: how many of the caller's calls hold a place and have not finished. */
const callerCallsKey = stateKey("serial lane caller calls", () => new Map<string, number>());

/**
 * Takes a place in a tool's serial lane when it is not parallel-safe: one call at a time per run
 * and conversation. A caller's calls enter the lane in the order they arrive — also when their
 * approval cards are answered in another order (`continue` must not overtake the `stack` asked
 * before it) — while a call whose card is still open holds up no other caller (the main agent's
 * `shell` does not wait behind a background worker's card). `caller` names who calls (surface and
 * caller). A call into a lane its caller already holds is refused with `LANE_REENTRY` at once,
 * instead of waiting for itself forever.
 */
export function reserveLane(run: Run, tool: Tool, held: ReadonlySet<string>, caller: string): LaneTicket {
  // A parallel-safe tool enters at once (this runs on every call).
  if (tool.parallelSafe) {
    return held === noLanes
      ? freeTicket
      : {
          enter: () => ({ lanes: held, release: undefined, waitedMs: 0 }),
          cancel: () => {},
          callerAhead: false,
        };
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
  // This caller's previous call must have entered the lane before this one asks for it.
  const turns = run.state(callerTurnsKey);
  const turnKey = `${laneId}\u0000${caller}`;
  const waiting = turns.get(turnKey);
  const previous = waiting ?? Promise.resolve();
  let passOn!: () => void;
  const entered = new Promise<void>((resolve) => {
    passOn = resolve;
  });
  turns.set(turnKey, entered);
  const calls = run.state(callerCallsKey);
  const callsBefore = calls.get(turnKey) ?? 0;
  calls.set(turnKey, callsBefore + 1);
  let done = false;
  // Once this call has finished (or given up its place): it is no longer ahead of the next.
  const finish = (): void => {
    if (done) return;
    done = true;
    const left = (calls.get(turnKey) ?? 1) - 1;
    if (left > 0) calls.set(turnKey, left);
    else calls.delete(turnKey);
  };
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    // Once the previous call is in, so is this one (or it gave up): the next may ask.
    void previous.then(passOn);
    // Forgotten once passed on, unless a later call of the caller already waits on it.
    void entered.then(() => {
      if (turns.get(turnKey) === entered) turns.delete(turnKey);
    });
  };
  const theLane = lane;
  return {
    enter: async (signal) => {
      const queued = performance.now();
      // Whether there is anything to wait for: a cancelled call that had nothing ahead of it is
      // cancelled as any call is, not "while it waited for the previous call".
      const behind = waiting !== undefined || theLane.size > 0;
      try {
        await untilOrCancelled(previous, signal);
        const release = await theLane.acquire(signal);
        return {
          lanes: new Set([...held, laneId]),
          release: () => {
            finish();
            release();
          },
          // With nothing ahead of it, the call did not wait (only for a few microtasks): it is not
          // judged again as a call that waited is.
          waitedMs: behind ? performance.now() - queued : 0,
        };
      } catch (error) {
        finish();
        throw !behind && signal.aborted ? cancelledCall(tool.name, signal) : error;
      } finally {
        settle();
      }
    },
    cancel: () => {
      settle();
      finish();
    },
    callerAhead: callsBefore > 0,
  };
}
