import { createRun, type Run } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import type { KernelClient } from "../client/kernel-client.js";
import { createKernelFactory, type KernelFactory } from "./kernel-factory.js";
import { KernelPool } from "./kernel-pool.js";

/** A stand-in kernel: what the pool looks at (whether it exited, its pid) and its dispose. */
interface FakeKernel {
  readonly pid: number;
  exited: string | undefined;
  disposed: boolean;
  dispose(): Promise<void>;
}

/** A factory whose starts are settled by the test, one at a time, in the order they came. */
function fakeFactory() {
  const pending: { resolve: (kernel: FakeKernel) => void; reject: (error: Error) => void }[] = [];
  const kernels: FakeKernel[] = [];
  let pid = 1000;
  const factory: KernelFactory = {
    settings: { ...createKernelFactory({ warmSpare: false }).settings },
    start: () =>
      new Promise((resolve, reject) => {
        pending.push({ resolve: resolve as unknown as (kernel: FakeKernel) => void, reject });
      }) as Promise<KernelClient>,
  };
  return {
    factory,
    kernels,
    starts: () => pending.length,
    /** Lets the n-th start (0-based) succeed with a new kernel. */
    succeed(n: number): FakeKernel {
      const kernel: FakeKernel = {
        pid: pid++,
        exited: undefined,
        disposed: false,
        dispose: () => {
          kernel.disposed = true;
          return Promise.resolve();
        },
      };
      kernels.push(kernel);
      pending[n]?.resolve(kernel);
      return kernel;
    },
    fail(n: number, message: string): void {
      pending[n]?.reject(new Error(message));
    },
  };
}

describe("the kernel pool (a stand-in factory)", () => {
  const runs: Run[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) await run.dispose();
  });

  function setup() {
    const fake = fakeFactory();
    const run = createRun({ workingDirectory: process.cwd() });
    runs.push(run);
    return { fake, pool: new KernelPool(run, fake.factory) };
  }

  it("gives every caller waiting on a start that fails its error, and the next call starts afresh", async () => {
    const { fake, pool } = setup();
    const one = pool.get("python");
    const two = pool.get("python");
    expect(fake.starts()).toBe(1);
    fake.fail(0, "the python kernel did not become ready");
    await expect(one).rejects.toThrow(/did not become ready/);
    await expect(two).rejects.toThrow(/did not become ready/);
    const three = pool.get("python");
    expect(fake.starts()).toBe(2);
    const kernel = fake.succeed(1);
    expect((await three).kernel).toBe(kernel);
  });

  it("still tells the next call that the dead kernel's state is lost when its replacement failed to start", async () => {
    const { fake, pool } = setup();
    const first = pool.get("python");
    const dead = fake.succeed(0);
    await first;
    dead.exited = "was killed by SIGKILL";
    const failing = pool.get("python");
    fake.fail(1, "the python kernel did not become ready");
    await expect(failing).rejects.toThrow(/did not become ready/);
    // The call that failed was told only that the start failed: the next one is the first handed
    // a kernel since the death, and its cell would meet a NameError without a word.
    const next = pool.get("python");
    fake.succeed(2);
    expect((await next).note).toMatch(/previous python kernel was killed by SIGKILL; this is a fresh kernel/);
    // Said once: the call after it keeps the kernel, and its state.
    expect((await pool.get("python")).note).toBeUndefined();
  });

  it("tells the next call its kernel is clean when a reset's start failed (the old kernel is gone)", async () => {
    const { fake, pool } = setup();
    const first = pool.get("python");
    fake.succeed(0);
    await first;
    const reset = pool.get("python", { reset: true });
    fake.fail(1, "the python kernel did not become ready");
    await expect(reset).rejects.toThrow(/did not become ready/);
    expect(fake.kernels[0]?.disposed).toBe(true);
    const next = pool.get("python");
    fake.succeed(2);
    expect((await next).note).toMatch(/a reset asked for by another call started this clean python kernel/);
  });

  it("does not tell a call of earlier cells lost when the first kernel was started by a reset", async () => {
    // A first call with reset: true that is cancelled while its kernel starts leaves that kernel
    // in the pool for the next call: no kernel existed before it, so no state was lost.
    const { fake, pool } = setup();
    const reset = pool.get("python", { reset: true });
    const next = pool.get("python");
    fake.succeed(0);
    expect((await reset).note).toBeUndefined();
    expect((await next).note).toBeUndefined();
  });

  it("tells a call waiting on a reset's kernel that the kernel it had is gone", async () => {
    const { fake, pool } = setup();
    const first = pool.get("python");
    fake.succeed(0);
    await first;
    const reset = pool.get("python", { reset: true });
    const next = pool.get("python");
    fake.succeed(1);
    expect((await reset).note).toBeUndefined();
    expect((await next).note).toMatch(/a reset asked for by another call started this clean python kernel/);
    expect(fake.kernels[0]?.disposed).toBe(true);
  });
});
