import { DebugError } from "../errors/debug-error.js";
import { defaultThread, threads, unknownThread } from "./inspection.js";
import type { SessionCore } from "./session-core.js";
import type { Outcome, StopInfo } from "./session-state.js";

/**
 * continue / next / stepIn / stepOut: returns at the next stop, the exit, or the bound. A
 * thread id the program does not have is refused before anything is sent; a resume the adapter
 * refuses leaves the stop as it was, its frame ids and references still valid.
 */
export async function resume(
  core: SessionCore,
  command: "continue" | "next" | "stepIn" | "stepOut",
  threadId?: number,
): Promise<Outcome> {
  const what = command === "continue" ? "continue" : "a step";
  core.assertStopped(what);
  if (threadId !== undefined) {
    const unknown = await unknownThread(core, threadId, `so ${what} was not sent`);
    if (unknown) throw unknown;
  }
  const thread = await defaultThread(core, threadId);
  // The stop's ids are dropped before the request (a stop may come before its answer) and given
  // back if it is refused: the program never resumed.
  const stop = core.snapshotStop();
  core.invalidate();
  core.state = "running";
  core.pauseRequested = false;
  const outcome = core.nextOutcome(core.options.resumeWaitMs);
  try {
    await core.request(command, { threadId: thread });
  } catch (error) {
    // Only a refusal leaves the program where it was: after a timeout the adapter may have run
    // the step, and the old ids would be taken against a program that moved.
    const refused = DebugError.isInstance(error) && error.code === "DEBUG_ADAPTER_ERROR";
    if (refused && core.state === "running") core.restoreStop(stop);
    core.settle({ kind: "timeout" });
    throw error;
  }
  return outcome;
}

/** Pauses; idempotent: an already-stopped program is reported as such without asking. */
export async function pause(
  core: SessionCore,
  threadId?: number,
): Promise<Outcome | { kind: "already"; stop: StopInfo | undefined }> {
  core.assertLive();
  if (core.state === "stopped") return { kind: "already", stop: core.lastStop };
  if (core.state === "exited") return { kind: "exited", exitCode: core.exitCode, signal: core.exitSignal };
  const thread = threadId ?? core.lastStop?.threadId ?? (await threads(core))[0]?.id ?? 1;
  const outcome = core.nextOutcome(core.options.resumeWaitMs);
  core.pauseRequested = true;
  try {
    await core.request("pause", { threadId: thread });
  } catch (error) {
    core.pauseRequested = false;
    throw error;
  }
  return outcome;
}
