import { describe, expect, it } from "vitest";
import { rejectOnAbort } from "./reject-on-abort.js";

describe("rejectOnAbort", () => {
  it("gives the work's outcome, or the signal's reason as soon as it aborts while the work goes on", async () => {
    await expect(rejectOnAbort(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    await expect(
      rejectOnAbort(Promise.reject(new Error("failed")), new AbortController().signal),
    ).rejects.toThrow("failed");
    const controller = new AbortController();
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const raced = rejectOnAbort(work, controller.signal);
    controller.abort(new Error("the operator pressed stop"));
    await expect(raced).rejects.toThrow("the operator pressed stop");
    finish("done later");
    await expect(work).resolves.toBe("done later");
  });

  it("rejects at once on a signal already aborted, the work's later failure handled", async () => {
    const controller = new AbortController();
    controller.abort();
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise<never>((_resolve, reject) => (fail = reject));
    await expect(rejectOnAbort(work, controller.signal)).rejects.toBeInstanceOf(Error);
    fail(new Error("start failed"));
    // An unhandled rejection would fail the run (vitest reports it as an error).
    await new Promise((resolve) => setImmediate(resolve));
  });
});
