import { describe, expect, it } from "vitest";
import { CallsInFlight, parseCancelLine } from "./calls-in-flight.js";
import type { JsonLinesResponse } from "./json-lines.js";

/** A call that answers when its signal aborts (as a cancelled tool does). */
function untilAborted(id: string | number) {
  return (signal: AbortSignal) =>
    new Promise<JsonLinesResponse>((resolve) => {
      signal.addEventListener(
        "abort",
        () => resolve({ id, ok: false, content: [], error: String((signal.reason as Error).message) }),
        { once: true },
      );
    });
}

describe("parseCancelLine", () => {
  it("reads a cancel line with or without an id of its own, and leaves other lines alone", () => {
    expect(parseCancelLine('{"cancel": 1}')).toEqual({ ok: true, request: { id: null, cancel: 1 } });
    expect(parseCancelLine('{"id": "c", "cancel": "a"}')).toEqual({
      ok: true,
      request: { id: "c", cancel: "a" },
    });
    expect(parseCancelLine('{"id": 1, "tool": "read", "args": {"path": "cancel"}}')).toBeUndefined();
    expect(parseCancelLine('{"id": 1, "tool": "shell", "cancel": 2}')).toBeUndefined();
    expect(parseCancelLine("not json")).toBeUndefined();
  });

  it("answers a cancel line without a usable call id with an error", () => {
    const parsed = parseCancelLine('{"id": 4, "cancel": {}}');
    expect(parsed).toMatchObject({ ok: false, response: { id: 4, ok: false } });
    expect(parsed?.ok === false && parsed.response.error).toContain('"cancel" must be a call\'s id');
  });
});

describe("CallsInFlight", () => {
  it("aborts the call with the id, answers the cancel line, and frees the id", async () => {
    const calls = new CallsInFlight();
    const running = calls.run(1, untilAborted(1));
    expect(calls.cancel({ id: "c", cancel: 1 })).toMatchObject({ id: "c", ok: true });
    expect(await running).toMatchObject({ id: 1, ok: false, error: expect.stringContaining("cancelled") });
    expect(calls.cancel({ id: null, cancel: 1 })).toMatchObject({
      id: null,
      ok: false,
      error: expect.stringContaining("no call with id 1 is in flight"),
    });
  });

  it("refuses a cancel line whose own id is that of a call in flight, and cancels nothing", async () => {
    const calls = new CallsInFlight();
    const first = calls.run(1, untilAborted(1));
    const second = calls.run(2, untilAborted(2));
    expect(calls.cancel({ id: 2, cancel: 1 })).toMatchObject({
      id: null,
      ok: false,
      error: expect.stringContaining("own id 2 is the id of a call in flight"),
    });
    expect(calls.cancel({ id: "c", cancel: 1 })).toMatchObject({ id: "c", ok: true });
    expect(calls.cancel({ id: null, cancel: 2 })).toBeUndefined();
    await Promise.all([first, second]);
  });

  it('refuses a second request with an id still in flight, and tells 1 from "1"', async () => {
    const calls = new CallsInFlight();
    const first = calls.run(1, untilAborted(1));
    let made = false;
    const second = await calls.run(1, () => {
      made = true;
      return Promise.resolve({ id: 1, ok: true, content: [], error: null });
    });
    expect(made).toBe(false);
    expect(second).toMatchObject({ id: 1, ok: false, error: expect.stringContaining("already in flight") });
    const other = calls.run("1", untilAborted("1"));
    expect(calls.cancel({ id: null, cancel: 1 })).toBeUndefined();
    expect(calls.cancel({ id: null, cancel: "1" })).toBeUndefined();
    await Promise.all([first, other]);
    // Once answered, the id may be used again.
    expect(
      await calls.run(1, () => Promise.resolve({ id: 1, ok: true, content: [], error: null })),
    ).toMatchObject({
      ok: true,
    });
  });
});
