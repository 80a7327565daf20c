import { resultText, type Registry, type Run, type ToolResult } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { cancelSoon, staged } from "../__fixtures__/cancel-soon.js";
import { makeRun, makeWorkspace } from "../__fixtures__/workspace.js";

/** What went wrong over a loop of cancels, by kind. */
interface Tally {
  /** The kernel died or was killed: its state lost. */
  killed: number;
  /** A long cell that ran to its end although cancelled 1–5 ms after it was submitted. */
  longNotStopped: number;
  /** The (uncancelled) cell after a cancelled one was interrupted. */
  nextHit: number;
  /** The result said none of the cell ran (or it ran to its end) and the state says otherwise. */
  wrongState: number;
}

describe("interrupts of the JavaScript kernel reach the cell they were meant for", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(options: Parameters<typeof makeRun>[1] = {}) {
    const workspace = makeWorkspace({ venv: false });
    const made = makeRun(workspace.directory, { interruptGraceMs: 3000, ...options });
    cleanups.push(workspace.remove, () => made.run.dispose());
    return made;
  }

  const invoke = (target: { registry: Registry; run: Run }, code: string, signal?: AbortSignal) =>
    target.registry.invoke(target.run, {
      tool: "eval",
      args: { code, description: "run a javascript interrupt test cell", language: "javascript" },
      ...(signal ? { signal } : {}),
    });

  it("cancels sent 1–5 ms after short and long cells never kill the kernel, miss a long cell or hit the next", async () => {
    // Before (on this machine): the interrupt was a bare SIGINT to the executor, whatever it was
    // doing. One that came before the cell's code started was dropped (the long cell ran to its
    // end), one that came as the cell ended hit the next cell, and one in the moment vm swaps
    // SIGINT handlers around a cell's synchronous part killed the executor, the state lost.
    const target = setup();
    const long = [
      // A synchronous loop (vm's breakOnSigint stops it) and an await (the interrupt rejects it).
      "const end = Date.now() + 500\nwhile (Date.now() < end) {}\nx += 1",
      // Its own count: an interrupted await is abandoned, not stopped, and what follows it still
      // runs once the promise settles (not fixed; see the report of this change).
      "await new Promise((resolve) => setTimeout(resolve, 500))\nlate += 1",
    ];
    expect(resultText(await invoke(target, "var x = 0, late = 0"))).toBe("(no output)");
    const tally: Tally = { killed: 0, longNotStopped: 0, nextHit: 0, wrongState: 0 };
    // What each kill said (the cell's result, or the next cell's), for the log should one come.
    const kills: string[] = [];
    let expected = 0;
    const rounds = 48;
    for (let round = 0; round < rounds; round++) {
      const isLong = round % 2 === 1;
      const code = isLong ? long[Math.floor(round / 2) % 2]! : "x += 1";
      const controller = new AbortController();
      const call = invoke(target, code, controller.signal);
      const firedAfter = cancelSoon(controller, 1 + (Math.floor(round / 2) % 5));
      const result: ToolResult = await call;
      const message = result.error?.message ?? "";
      if (/killed|KERNEL_DIED|state is lost/.test(message)) {
        tally.killed++;
        kills.push(`round ${round}: ${message}`);
        // A fresh kernel: start over.
        await invoke(target, "var x = 0, late = 0");
        expected = 0;
        continue;
      }
      // Its own cancel says CANCELLED: a KeyboardInterrupt as the cell's error came for another.
      if (result.error?.code === "CELL_ERROR" && /KeyboardInterrupt/.test(message)) tally.nextHit++;
      const ranToEnd = result.error === undefined || /ran to its end/.test(message);
      const noneRan = /none of it ran/.test(message);
      if (isLong && ranToEnd && staged(await firedAfter)) tally.longNotStopped++;
      const next = await invoke(target, "x");
      if (/exited|killed|fresh kernel/.test(resultText(next))) {
        tally.killed++;
        kills.push(`round ${round}, the next cell: ${resultText(next)}`);
        await invoke(target, "var x = 0, late = 0");
        expected = 0;
        continue;
      }
      if (next.error !== undefined) {
        tally.nextHit++;
        continue;
      }
      const now = Number(resultText(next));
      // An interrupt inside the short cell's one statement leaves it either way.
      if ((ranToEnd && now !== expected + 1) || (noneRan && now !== expected)) tally.wrongState++;
      expected = now;
    }
    console.log(`js interrupt race over ${rounds} cancels: ${JSON.stringify(tally)}`);
    for (const kill of kills) console.log(kill);
    expect(tally).toEqual({ killed: 0, longNotStopped: 0, nextHit: 0, wrongState: 0 });
  });
});
