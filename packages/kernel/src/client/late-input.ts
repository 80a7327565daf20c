import { bridgeMarker } from "../launch/python-setup.js";
import type { KernelLanguage } from "./kernel-client.js";

/** The bridge error code of a call made after its cell had finished. */
export const cellFinishedCode = "CELL_FINISHED";

/**
 * The input_reply value for an input_request whose cell has finished: a thread or a timer the
 * cell started called tool() or input() after the cell was done. Nobody is there to run the call
 * for, and the kernel waits for a reply (Python's tool() holds the bridge's lock meanwhile, so
 * every later tool(), input() and !cmd would wait behind it): the reply is a bridge error, which
 * the cell's helper raises (ToolError for tool(), EOFError for input()). A prompt that is not a
 * bridged call gets an empty line.
 */
export function lateInputReply(prompt: string, language: KernelLanguage): string {
  const asked = bridgedCall(prompt);
  if (!asked) return "";
  const wait =
    language === "python"
      ? "wait for the thread in it (thread.join())"
      : "await the timer's work in it (await new Promise(...))";
  const error =
    typeof asked.input === "string"
      ? `${callNamed(asked)} was called after its cell had finished (from a thread or a timer the cell started), so nobody was asked: ask from the cell, or ${wait}`
      : `the cell that called ${callNamed(asked)} has finished, so the call was not run: call tools from the cell, or ${wait}`;
  return JSON.stringify({ ok: false, code: cellFinishedCode, error });
}

/** The bridge error code of a thread's call in flight when its cell was interrupted. */
export const interruptedCode = "INTERRUPTED";

/**
 * True when a bridged call came from a thread other than the kernel's main thread (Python's
 * helper says so in `main`). An interrupt (SIGINT) reaches the main thread only: its pending
 * input() raises KeyboardInterrupt, while another thread's goes on waiting for a reply.
 */
export function askedFromOtherThread(prompt: string): boolean {
  return bridgedCall(prompt)?.main === false;
}

/**
 * The input_reply value for a call a thread made that was still in flight when its cell was
 * interrupted: its result, computed across the interrupt, is not kept (the thread's cell is gone),
 * but the thread waits for a reply holding the bridge's lock, so it gets an error at once (ToolError
 * for tool(), EOFError for input()).
 */
export function interruptedInputReply(prompt: string): string {
  return JSON.stringify({
    ok: false,
    code: interruptedCode,
    error: `the cell was interrupted while this call ran; its result was not kept (${callNamed(bridgedCall(prompt) ?? {})} from a thread the cell started)`,
  });
}

/** What a bridged call's prompt says of it; `{}` when its JSON does not read. */
interface BridgedCall {
  readonly tool?: unknown;
  readonly input?: unknown;
  readonly password?: unknown;
  /** How the cell read: `sys.stdin.readline()`, `sys.stdin.read()` (absent for input() and getpass()). */
  readonly via?: unknown;
  readonly main?: unknown;
}

/** The call a prompt carries, or undefined for a prompt that is no bridged call. */
function bridgedCall(prompt: string): BridgedCall | undefined {
  if (!prompt.startsWith(bridgeMarker)) return undefined;
  try {
    const asked: unknown = JSON.parse(prompt.slice(bridgeMarker.length));
    return typeof asked === "object" && asked !== null ? (asked as BridgedCall) : {};
  } catch {
    // Not ours to judge: the replies say the same for any call.
    return {};
  }
}

/** `input()`, `getpass()`, `sys.stdin.readline()` or `tool("read")`, as the cell wrote the call. */
function callNamed(asked: BridgedCall): string {
  if (typeof asked.input === "string") {
    if (typeof asked.via === "string") return asked.via;
    return asked.password === true ? "getpass()" : "input()";
  }
  return `tool(${typeof asked.tool === "string" ? JSON.stringify(asked.tool) : ""})`;
}
