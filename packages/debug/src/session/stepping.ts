import { defaultThread, threads } from "./inspection.js";
import type { Outcome, SessionCore, StopInfo } from "./session-core.js";

/** continue / next / stepIn / stepOut: returns at the next stop, the exit, or the bound. */
export async function resume(
  core: SessionCore,
  command: "continue" | "next" | "stepIn" | "stepOut",
  threadId?: number,
): Promise<Outcome> {
  core.assertStopped(command === "continue" ? "continue" : "a step");
  const thread = await defaultThread(core, threadId);
  core.invalidate();
  core.state = "running";
  core.pauseRequested = false;
  const outcome = core.nextOutcome(core.options.resumeWaitMs);
  try {
    await core.request(command, { threadId: thread });
  } catch (error) {
    if (core.state === "running") core.state = "stopped";
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
