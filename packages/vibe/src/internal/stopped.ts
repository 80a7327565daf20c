import { ToolsError } from "@tools/registry";
import { abortReason } from "./abort.js";

/**
 * The error a backend's attempt rejects with once it stopped on its aborted `signal`: the abort's
 * reason (same code and message), carrying what the attempt had done by then (`soFar`, a sentence
 * or a CLI's output). A killed worker's result says it: its edits stay, so the lead must know.
 */
export function stoppedError(signal: AbortSignal, soFar: string): Error {
  const reason = abortReason(signal);
  if (soFar.trim() === "") return reason;
  return new ToolsError({
    code: ToolsError.isInstance(reason) ? reason.code : "CANCELLED",
    message: reason.message,
    cause: reason,
    data: { soFar },
  });
}

/** What a stopped attempt had done by then (see {@link stoppedError}), or undefined. */
export function soFarOf(error: unknown): string | undefined {
  if (!ToolsError.isInstance(error)) return undefined;
  const soFar = error.data["soFar"];
  return typeof soFar === "string" && soFar.trim() !== "" ? soFar : undefined;
}
