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
  if (!prompt.startsWith(bridgeMarker)) return "";
  let asked: { tool?: unknown; input?: unknown; password?: unknown } = {};
  try {
    asked = JSON.parse(prompt.slice(bridgeMarker.length)) as typeof asked;
  } catch {
    // Not ours to judge: the reply below says the same for any call.
  }
  const wait =
    language === "python"
      ? "wait for the thread in it (thread.join())"
      : "await the timer's work in it (await new Promise(...))";
  const error =
    typeof asked.input === "string"
      ? `${asked.password === true ? "getpass()" : "input()"} was called after its cell had finished (from a thread or a timer the cell started), so nobody was asked: ask from the cell, or ${wait}`
      : `the cell that called tool(${typeof asked.tool === "string" ? JSON.stringify(asked.tool) : ""}) has finished, so the call was not run: call tools from the cell, or ${wait}`;
  return JSON.stringify({ ok: false, code: cellFinishedCode, error });
}
