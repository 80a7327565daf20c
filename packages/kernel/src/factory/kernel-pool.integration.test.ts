import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { running } from "../__fixtures__/processes.js";
import { ci, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";
import type { KernelClient } from "../client/kernel-client.js";
import { evalTool } from "../eval/eval-tool.js";
import { createKernelFactory, kernelFactoryKey, type KernelFactory } from "./kernel-factory.js";
import { kernelPool } from "./kernel-pool.js";

const describePython = describe.skipIf(!pythonFound && !ci);

/**
 * The real factory, counting the kernels it starts (real ipykernel processes). `hold(n)` keeps
 * the n-th start (1-based) waiting until the returned release is called.
 */
function countingFactory(options: { warmSpare: boolean }) {
  const real = createKernelFactory({ warmSpare: options.warmSpare });
  const kernels: KernelClient[] = [];
  const holds = new Map<number, Promise<void>>();
  let starts = 0;
  const factory: KernelFactory = {
    settings: real.settings,
    start: async (language, directory) => {
      starts += 1;
      await holds.get(starts);
      const kernel = await real.start(language, directory);
      kernels.push(kernel);
      return kernel;
    },
  };
  return {
    factory,
    kernels,
    starts: () => starts,
    hold(n: number): () => void {
      let release: () => void = () => undefined;
      holds.set(n, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    /** Kernel processes started here that are still running. */
    runningKernels: () => kernels.filter((kernel) => kernel.pid !== undefined && running(kernel.pid)).length,
  };
}

describePython("the kernel pool after a kernel died, on a real ipykernel", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(warmSpare: boolean): { run: Run; counting: ReturnType<typeof countingFactory> } {
    expect(pythonFound).toBe(true);
    const workspace = makeWorkspace();
    const counting = countingFactory({ warmSpare });
    const run = createRun({
      workingDirectory: workspace.directory,
      resources: [[kernelFactoryKey, counting.factory]],
    });
    cleanups.push(workspace.remove, () => run.dispose());
    return { run, counting };
  }

  async function killKernel(kernel: KernelClient): Promise<void> {
    process.kill(kernel.pid!, "SIGKILL");
    await expect.poll(() => kernel.exited, { timeout: 10_000 }).toBeDefined();
  }

  it.each([false, true])(
    "two gets at once after a death start one kernel and both get it (warm spare: %s)",
    async (warmSpare) => {
      // Before: both saw the dead kernel and each started (or took the spare and started) one;
      // the first caller's kernel was then replaced in the pool by the second's.
      const { run, counting } = setup(warmSpare);
      const pool = kernelPool(run, counting.factory);
      const first = await pool.get("python");
      if (warmSpare) {
        pool.warm("python");
        // The spare is ready before the death: the race is between the two gets alone.
        await expect.poll(() => counting.kernels.length, { timeout: 30_000 }).toBe(2);
      }
      await killKernel(first.kernel);
      const startsBefore = counting.starts();
      const [one, two] = await Promise.all([pool.get("python"), pool.get("python")]);
      expect(counting.starts() - startsBefore).toBe(warmSpare ? 0 : 1);
      expect(one.kernel).toBe(two.kernel);
      // Both callers are told the state was lost, and the pool keeps that kernel.
      expect(one.note).toMatch(/previous python kernel was killed by SIGKILL; this is a fresh kernel/);
      expect(two.note).toBe(one.note);
      expect((await pool.get("python")).kernel).toBe(one.kernel);
      expect(counting.runningKernels()).toBe(1);
    },
  );

  it("two resets at once start one clean kernel and both get it", async () => {
    const { run, counting } = setup(false);
    const pool = kernelPool(run, counting.factory);
    const first = await pool.get("python");
    const [one, two] = await Promise.all([
      pool.get("python", { reset: true }),
      pool.get("python", { reset: true }),
    ]);
    expect(counting.starts()).toBe(2);
    expect(one.kernel).toBe(two.kernel);
    expect(one.kernel).not.toBe(first.kernel);
    expect(one.kernel.exited).toBeUndefined();
    await expect.poll(() => counting.runningKernels(), { timeout: 10_000 }).toBe(1);
  });

  it("a call cancelled while it waits for the spare after a death does not swap the next call's kernel", async () => {
    // Before: the cancelled call went on waiting for the spare in the pool; the next call started
    // a kernel of its own and ran its cell there, then the spare replaced it: the following cell
    // lost that state without a word (NameError), and three kernels were started, not two.
    const { run, counting } = setup(true);
    const registry = createRegistry({ tools: [evalTool], approval: "auto" });
    const cell = (code: string, signal?: AbortSignal) =>
      registry.invoke(run, {
        tool: "eval",
        args: { code, description: "a python cell of the pool race test" },
        ...(signal === undefined ? {} : { signal }),
      });
    const releaseSpare = counting.hold(2);
    cleanups.push(releaseSpare);
    const pid = Number(resultText(await cell("import os\nos.getpid()")).trim());
    await expect.poll(() => counting.starts(), { timeout: 10_000 }).toBe(2);
    process.kill(pid, "SIGKILL");
    await expect.poll(() => counting.kernels[0]?.exited, { timeout: 10_000 }).toBeDefined();
    // Each call says "connecting to the python kernel…" just before it asks the pool.
    let asked = 0;
    let onAsk: () => void = () => undefined;
    cleanups.push(
      registry.on((event) => {
        if (event.type !== "call-progress") return;
        asked += 1;
        onAsk();
      }),
    );
    const controller = new AbortController();
    const cancelled = cell("1 + 1", controller.signal);
    await expect.poll(() => asked, { timeout: 10_000 }).toBe(1);
    controller.abort(new Error("the operator pressed stop"));
    expect((await cancelled).error?.code).toBe("CANCELLED");
    // The spare is let go once the next call has asked the pool for its kernel.
    onAsk = () => setImmediate(releaseSpare);
    const next = resultText(await cell("kept = 5\nimport os\nos.getpid()"));
    const after = resultText(await cell("print(kept * 2, os.getpid())"));
    expect(after).toBe(`10 ${/(\d+)$/.exec(next)?.[1]}`);
    // The call that got the replacement is told the state was lost (the cancelled one never was).
    expect(next).toMatch(/previous python kernel was killed by SIGKILL[\s\S]*\n\d+$/);
    // The first kernel, the spare that replaced it, and a new spare warmed after the cell.
    expect(counting.starts()).toBe(3);
  });
});
