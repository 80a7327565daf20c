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
    const request = JSON.parse(prompt.slice(bridgeMarker.length)) as {
      tool?: unknown;
      args?: unknown;
      input?: unknown;
      password?: unknown;
      via?: unknown;
      reads?: unknown;
    };
    if (typeof request.input === "string") {
      const reads = request.reads === "line" || request.reads === "all" ? request.reads : undefined;
      const asking: Asking =
        typeof request.via === "string" && reads !== undefined
          ? { via: request.via, reads }
          : { via: request.password === true ? "getpass()" : "input()", password: request.password === true };
      reply = await answerInput(request.input, asking, context, signal);
    } else if (typeof request.tool !== "string") {
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

/** The tool a cell's `input()` asks the operator through. */
export const askUserTool = "ask_user";

/**
 * Why nobody can be asked from this call, by the nested call's error code: no ask_user in the run,
 * not on the calling surface (a background worker's), or no human attached to it.
 */
const nobodyToAsk: Readonly<Record<string, string>> = {
  UNKNOWN_TOOL: `this run has no ${askUserTool} tool`,
  TOOL_NOT_WIRED: `this run has no ${askUserTool} tool`,
  NOT_ON_SURFACE: `this caller may not use ${askUserTool}`,
  TIER_EXCEEDED: `this caller may not use ${askUserTool}`,
  ASK_NO_HUMAN: "no human is attached to answer",
};

/**
 * What a cell's request reads: `input()` or `getpass()` (`password`), or Python's `sys.stdin`
 * (`reads`: a line, or the whole text), named as the cell called it (`via`).
 */
type Asking =
  | { readonly via: string; readonly password: boolean; readonly reads?: undefined }
  | { readonly via: string; readonly reads: "line" | "all"; readonly password?: undefined };

/** The card's question and context for a request with no prompt of its own, or with one. */
function cardText(prompt: string, asking: Asking): { question: string; context: string } {
  const asked = prompt.trim();
  if (asking.reads !== undefined) {
    return {
      question:
        asking.reads === "line"
          ? `A running cell reads a line of its standard input (${asking.via}).`
          : `A running cell reads all of its standard input (${asking.via}).`,
      context:
        (asking.reads === "line"
          ? "A Python cell reads sys.stdin: your answer is the line it gets (each line it reads asks again)."
          : "A Python cell reads sys.stdin to its end: your answer is the whole text it gets.") +
        " Decline to end its input (end of file).",
    };
  }
  return {
    question:
      asked !== ""
        ? asked
        : asking.password
          ? "A running cell asks for a password."
          : "A running cell asks for input.",
    context: asking.password
      ? "A Python cell called getpass(): your answer is the password it gets; it is not shown as you type, nor in any result."
      : "A Python cell called input(): your answer is the line it gets.",
  };
}

/**
 * Answers the cell's `input()` / `getpass()` / `sys.stdin` read with an ask_user card, a nested call
 * as a bridged one (approval and guardrails apply): the prompt is the question, the answer free
 * text. `getpass()`'s call passes `receiveSecret`, so its card is secret and the password comes back
 * out of band, never in ask_user's result (an ask_user that ignores it answers in its text, as for
 * input()). Without an ask_user this call may use, or a human to answer it, the reply is
 * `NO_OPERATOR` (the cell raises StdinNotImplementedError); a declined card is `DECLINED` (EOFError
 * from input(), the end of the input for sys.stdin), a timed-out or cancelled one an error (EOFError).
 */
async function answerInput(
  prompt: string,
  asking: Asking,
  context: ToolContext,
  signal: AbortSignal,
): Promise<BridgeReply> {
  const password = asking.password === true;
  const args = { ...cardText(prompt, asking), allow_free_text: true };
  // A password is taken out of band: ask_user then draws a secret card (typed without echo, never
  // shown back) and its result only says it was answered, so no transcript or log holds it.
  let secret: string | undefined;
  const result = await context.invoke(askUserTool, args, {
    origin: "cell",
    signal,
    ...(password
      ? {
          receiveSecret: (value: string) => {
            secret = value;
          },
        }
      : {}),
  });
  if (result.isError) {
    const code = result.error?.code ?? "TOOL_FAILED";
    const message = result.error?.message ?? resultText(result);
    const why = nobodyToAsk[code];
    if (why !== undefined) {
      return {
        ok: false,
        code: "NO_OPERATOR",
        error:
          `${asking.via} is not available in eval: nobody is there to type an answer (${why}).` +
          (asking.reads === undefined
            ? " Put the value in the code instead"
            : " Put the data in the code or read it from a file instead") +
          `; when a run has an operator, ask them with tool('${askUserTool}', {'question': '...'}).`,
      };
    }
    return { ok: false, code, error: `${asking.via} got no answer: ${message}` };
  }
  if (secret !== undefined) return { ok: true, text: secret };
  const text = resultText(result);
  const answer = answerOf(text);
  if (answer === undefined) {
    return { ok: false, code: "DECLINED", error: `${asking.via} got no answer: ${text}` };
  }
  return { ok: true, text: answer };
}

/**
 * The operator's typed answer in ask_user's result (@tools/ask: `The operator answered.` then
 * `Their answer: "<JSON string>"`); undefined when they declined. Another ask_user's plain text is
 * the answer as it is.
 */
function answerOf(text: string): string | undefined {
  if (text.startsWith("The operator declined")) return undefined;
  if (!text.startsWith("The operator answered.")) return text;
  const quoted = /^(?:Their answer|Their note): (".*")$/m.exec(text)?.[1];
  if (quoted === undefined) return "";
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === "string" ? value : quoted;
  } catch {
    return quoted;
  }
}
