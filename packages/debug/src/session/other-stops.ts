import type { DebugProtocol } from "@vscode/debugprotocol";
import type { SessionCore } from "./session-core.js";
import type { StopInfo } from "./session-state.js";
import { displayPath } from "./source-lines.js";

/** How many other stopped threads a report names; the rest are counted. */
const maxListed = 5;

/**
 * The stop a report is about, once the stop's other events are in: the one the caller was
 * given may have been a thread lldb-dap sent before the one it focuses. For lldb one request's
 * round trip lets those events arrive (it sends them all at once); other adapters send one.
 */
export async function settledStop(core: SessionCore, stop: StopInfo): Promise<StopInfo> {
  const current = stop === core.lastStop || [...core.alsoStopped.values()].includes(stop);
  if (!current || core.adapterId !== "lldb") return stop;
  try {
    await core.request("threads", undefined, 5000);
  } catch {
    // Only a wait for the events: the stop is described as it is.
  }
  return core.state === "stopped" && core.lastStop ? core.lastStop : stop;
}

/**
 * "also stopped: thread 922 (breakpoint) at prog.c:17 in thr", one line for each other thread
 * stopped with a reason of its own in `stop` (at most 5, the rest counted), or "" when none or
 * `stop` is not the current one. A thread's place is its top frame (one stackTrace each).
 */
export async function describeOtherStops(core: SessionCore, stop: StopInfo): Promise<string> {
  if (stop !== core.lastStop || core.state !== "stopped") return "";
  const others = [...core.alsoStopped.values()].filter(
    (other) => other.reason !== "pause" && other.threadId !== stop.threadId,
  );
  if (others.length === 0) return "";
  const lines = await Promise.all(
    others.slice(0, maxListed).map(async (other) => {
      const reason =
        other.reason === "exception" ? `exception: ${other.description ?? other.text ?? "?"}` : other.reason;
      let where = "";
      try {
        const response = await core.request<DebugProtocol.StackTraceResponse>(
          "stackTrace",
          { threadId: other.threadId, startFrame: 0, levels: 1 },
          5000,
        );
        const frame = response.body?.stackFrames[0];
        if (frame) {
          const place = frame.source?.path
            ? `${displayPath(frame.source.path, core.options.root)}:${frame.line}`
            : (frame.source?.name ?? "<no source>");
          where = ` at ${place} in ${frame.name}`;
        }
      } catch {
        // Named without its place.
      }
      return `\n  also stopped: thread ${other.threadId} (${reason})${where}`;
    }),
  );
  const more = others.length - maxListed;
  return lines.join("") + (more > 0 ? `\n  also stopped: ${more} more threads` : "");
}
