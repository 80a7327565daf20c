import { existsSync } from "node:fs";
import { resultText, type ToolResult } from "@tools/registry";
import { expect } from "vitest";

/**
 * Starts a call with `start` (its cell creates `flag` once it is where the cancel should land),
 * cancels it once the flag exists, as an operator's stop, and returns the cancelled call's result.
 * A call that ends before its cell created the flag fails the test with the call's own text (a
 * cell that failed early), not with a poll that timed out.
 */
export async function cancelWhenFlagged(
  flag: string,
  start: (signal: AbortSignal) => Promise<ToolResult>,
): Promise<ToolResult> {
  const controller = new AbortController();
  const call = start(controller.signal);
  let ended: ToolResult | undefined;
  void call.then(
    (result) => {
      ended = result;
    },
    () => undefined,
  );
  await expect
    .poll(() => existsSync(flag) || ended !== undefined, { timeout: 30_000, interval: 20 })
    .toBe(true);
  if (!existsSync(flag)) {
    throw new Error(`the call ended before its cell created ${flag}: ${resultText(ended!)}`);
  }
  controller.abort(new Error("the operator pressed stop"));
  return call;
}
