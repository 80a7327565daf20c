import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { SharedLock } from "./shared-lock.js";

// SIGINT ends a cell's script as a timeout does (V8's TerminateExecution): played with a timeout.
describe("SharedLock", () => {
  const terminatedInside = (lock: SharedLock, timeout: number) => {
    const global = globalThis as { sharedLockUnderTest?: SharedLock };
    global.sharedLockUnderTest = lock;
    try {
      new Script("sharedLockUnderTest.run(() => { for (;;) {} })").runInThisContext({ timeout });
    } catch (caught) {
      return (caught as Error).message;
    } finally {
      delete global.sharedLockUnderTest;
    }
    return "not terminated";
  };

  it("is left held by a script terminated under it, and released by releaseAbandoned", () => {
    const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const lock = new SharedLock(state, 0, 2);
    // On a loaded machine the timeout may end the script before it took the lock (nothing held
    // then): again with a longer one, until it ends the script inside.
    for (let timeout = 20; timeout <= 2_560 && Atomics.load(state, 0) === 0; timeout *= 2) {
      expect(terminatedInside(lock, timeout)).toMatch(/timed out/);
    }
    // No `finally` ran: held, the next run() (the interrupt thread's, the executor's) spun for good.
    expect(Atomics.load(state, 0)).toBe(2);
    lock.releaseAbandoned();
    expect(Atomics.load(state, 0)).toBe(0);
    expect(lock.run(() => "ran")).toBe("ran");
    expect(Atomics.load(state, 0)).toBe(0);
  });

  it("leaves a lock another thread holds alone", () => {
    const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    Atomics.store(state, 0, 1);
    new SharedLock(state, 0, 2).releaseAbandoned();
    expect(Atomics.load(state, 0)).toBe(1);
  });
});
