import type { DebugProtocol } from "@vscode/debugprotocol";
import { DapRequestError } from "../dap/dap-connection.js";
import { DebugError } from "../errors/debug-error.js";
import { formatWait } from "../internal/format-wait.js";
import { isAlive, startTime } from "../internal/process-tree.js";
import { withoutAdapterFrames } from "./adapter-frames.js";
import type { SessionCore } from "./session-core.js";

/** How long a refused request waits for the adapter to report the exit of a program that is gone, in ms. */
const exitReportMs = 3000;

/**
 * A request to the adapter; a refusal becomes a DebugError the model can read. When `signal`
 * aborts (its caller is gone) the request is given up at once: not sent if it was not yet, else
 * its answer is not waited for, and an adapter that supports `cancel` is told; the rejection is
 * the signal's reason.
 */
export async function adapterRequest<R extends DebugProtocol.Response>(
  core: SessionCore,
  command: string,
  args: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<R> {
  core.assertLive();
  try {
    return await core.options.adapter.connection.request<R>(command, args, timeoutMs, {
      signal,
      cancel: core.capabilities.supportsCancelRequest === true,
    });
  } catch (error) {
    if (error instanceof DapRequestError && error.kind === "cancelled" && signal) throw abortReason(signal);
    if (error instanceof DapRequestError && error.kind === "timeout") {
      const within = formatWait(timeoutMs);
      throw new DebugError(
        "DEBUG_TIMEOUT",
        command === "evaluate"
          ? `evaluate timed out: no answer within ${within}. The expression may still be running in the program, ` +
              "and the next request may wait until it ends; op 'terminate' ends the session if it never does"
          : `${command} timed out: the adapter gave no answer within ${within}; op 'terminate' ends the session if it stays unresponsive`,
        { cause: error },
      );
    }
    if (error instanceof DapRequestError) {
      // The program ended while the request ran (an evaluate calling os._exit): the refusal is
      // that end ("No more messages"), said as such.
      if (await endedMeanwhile(core)) {
        throw new DebugError(
          "DEBUG_SESSION_ENDED",
          `${core.exitText()} during ${command}, so ${command} has no answer; the session ends with it: launch again to debug it again`,
          { cause: error },
        );
      }
      throw new DebugError(
        "DEBUG_ADAPTER_ERROR",
        `the adapter refused ${command}: ${withoutAdapterFrames(error.message)}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * True when the program has ended: it is reported so, or no debuggee process learnt is alive
 * any more, and then the adapter's report of the exit (with its code) is waited for, at most
 * {@link exitReportMs}, ending the session without it if it does not come.
 */
async function endedMeanwhile(core: SessionCore): Promise<boolean> {
  if (programOver(core)) return true;
  const pids = [...core.debuggeePids];
  const same = (pid: number): boolean => {
    const started = core.pidStarts.get(pid);
    return started === undefined || startTime(pid) === started;
  };
  if (pids.length === 0 || pids.some((pid) => same(pid) && isAlive(pid))) return false;
  if (core.state === "stopped" || core.state === "running") {
    const outcome = await core.rawOutcome(exitReportMs);
    if (outcome.kind === "timeout") core.programExited();
  }
  return programOver(core);
}

/** The program has exited (the session may still be ending) or the session has ended. */
function programOver(core: SessionCore): boolean {
  return core.state === "exited" || core.state === "ended";
}

/** What a call given up through `signal` rejects with: the signal's reason, as `rejectOnAbort` does. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("cancelled");
}
