import { errorMessage, resultText, type ToolContext } from "@tools/registry";
import { bridgeMarker } from "../launch/python-setup.js";

/** A reply to the in-kernel `tool()` helper, JSON in the input_reply. */
export type BridgeReply =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: string; readonly error: string };

/** True when an input_request's prompt is a bridged tool call. */
export function isBridgeCall(prompt: string): boolean {
  return prompt.startsWith(bridgeMarker);
}

/**
 * Runs a bridged call through the registry with origin "cell" (same run and surface as the eval
 * call, so validation, guardrails, approval and result wrappers apply) and encodes the reply.
 */
export async function answerBridgeCall(
  prompt: string,
  context: ToolContext,
  signal: AbortSignal,
  changedFiles: Set<string>,
): Promise<string> {
  let reply: BridgeReply;
  try {
    const request = JSON.parse(prompt.slice(bridgeMarker.length)) as { tool?: unknown; args?: unknown };
    if (typeof request.tool !== "string") {
      reply = {
        ok: false,
        code: "INVALID_ARGUMENTS",
        error: 'tool() needs a tool name: tool("read", {"path": "a.txt"})',
      };
    } else {
      const result = await context.invoke(request.tool, request.args ?? {}, { origin: "cell", signal });
      for (const file of result.changedFiles) changedFiles.add(file);
      reply = result.isError
        ? {
            ok: false,
            code: result.error?.code ?? "TOOL_FAILED",
            error: result.error?.message ?? resultText(result),
          }
        : { ok: true, text: resultText(result) };
    }
  } catch (error) {
    reply = { ok: false, code: "TOOL_FAILED", error: errorMessage(error) };
  }
  return JSON.stringify(reply);
}
