import { ToolsError } from "@tools/registry";

/** The reason an aborted signal carries, as an Error (a plain DOMException otherwise). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new ToolsError({ code: "CANCELLED", message: typeof reason === "string" ? reason : "cancelled" });
}

/** Throws the signal's reason when it has aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}
