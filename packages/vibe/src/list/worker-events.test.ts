import { afterEach, describe, expect, it, vi } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";
import { createVibeList, type WorkerEvent } from "./vibe-list.js";
import { activityIntervalMs } from "./worker-events.js";

/** The events of `kit`'s list, as `type:status:activity` strings, from now on. */
function record(kit: Kit): { events: WorkerEvent[]; lines: () => string[] } {
  const events: WorkerEvent[] = [];
  kit.list.on((event) => events.push(event));
  return {
    events,
    lines: () => events.map((event) => `${event.type}:${event.worker.status}:${event.worker.activity ?? ""}`),
  };
}

/** Lets the promise callbacks and I/O callbacks waiting now run (real setImmediate). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("worker events: progress lines are coalesced, status changes are not", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await kit?.cleanup();
    kit = undefined;
  });

  it("a burst of 10 000 progress lines is one activity event, then the last line, then the end at once", async () => {
    // A backend of the test's: only it can give 10 000 lines in one tick, deterministically.
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "work", label: "busy" });
    const attempt = await backend.attempt(0);
    // The clock stands still from here: nothing below may wait for a coalescing timer.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { lines } = record(kit);
    for (let i = 1; i <= 10_000; i++) attempt.task.progress(`line ${i}`);
    expect(lines()).toEqual(["activity:running:line 1"]);
    attempt.answer("finished");
    await settle();
    // The held-back line goes out before the end; the end does not wait for the interval.
    expect(lines()).toEqual(["activity:running:line 1", "activity:running:line 10000", "status:done:"]);
    expect(kit.list.get("w1").lastResult).toBe("finished");
  });

  it(`at most one activity event per worker per ${activityIntervalMs} ms, carrying the latest line`, async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 2 });
    await kit.call("vibe_spawn", { brief: "one", label: "one" });
    await kit.call("vibe_spawn", { brief: "two", label: "two" });
    const one = await backend.attempt(0);
    const two = await backend.attempt(1);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    const { events } = record(kit);
    const shown = (id: string) =>
      events.filter((event) => event.worker.id === id).map((event) => event.worker.activity);
    one.task.progress("a1");
    two.task.progress("b1");
    one.task.progress("a2");
    one.task.progress("a3");
    two.task.progress("b2");
    // Each worker's first line at once; the others wait for the interval.
    expect(shown("w1")).toEqual(["a1"]);
    expect(shown("w2")).toEqual(["b1"]);
    vi.advanceTimersByTime(activityIntervalMs - 1);
    expect(events).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(shown("w1")).toEqual(["a1", "a3"]);
    expect(shown("w2")).toEqual(["b1", "b2"]);
    // Quiet since: the next line goes out at once, the one after it an interval later.
    vi.advanceTimersByTime(activityIntervalMs);
    one.task.progress("a4");
    one.task.progress("a5");
    expect(shown("w1")).toEqual(["a1", "a3", "a4"]);
    vi.advanceTimersByTime(activityIntervalMs);
    expect(shown("w1")).toEqual(["a1", "a3", "a4", "a5"]);
    // Nothing held: no event without a new line.
    vi.advanceTimersByTime(10 * activityIntervalMs);
    expect(events).toHaveLength(6);
    one.answer("done");
    two.answer("done");
  });

  it("activityIntervalMs 0 sends every progress line; an interval that is no number of milliseconds is refused", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, activityIntervalMs: 0 });
    await kit.call("vibe_spawn", { brief: "work", label: "busy" });
    const attempt = await backend.attempt(0);
    const { lines } = record(kit);
    for (let i = 1; i <= 3; i++) attempt.task.progress(`line ${i}`);
    expect(lines()).toEqual([
      "activity:running:line 1",
      "activity:running:line 2",
      "activity:running:line 3",
    ]);
    attempt.answer("finished");
    for (const bad of [-1, Number.NaN, 2 ** 31]) {
      const options = { registry: kit.registry, run: kit.run, backend, activityIntervalMs: bad };
      expect(() => createVibeList(options)).toThrow(
        /activityIntervalMs must be a number of milliseconds from 0 to 2147483647, got/,
      );
    }
  });

  it("a card opened by a worker shows at once, after the progress line held back", async () => {
    const backend = new HeldBackend();
    let answer: ((allow: boolean) => void) | undefined;
    kit = createKit({
      backend,
      approver: {
        attached: () => true,
        request: () =>
          new Promise((resolve) => {
            answer = (allow) => resolve(allow ? { allow: true } : { allow: false, reason: "no" });
          }),
      },
      approval: "ask",
    });
    await kit.call("vibe_spawn", { brief: "write", label: "writer" });
    const attempt = await backend.attempt(0);
    const { events } = record(kit);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    attempt.task.progress("turn 1: waiting");
    attempt.task.progress("turn 1: calling write_note");
    const writing = attempt.task.toolbox.call("write_note", { file: "out.txt", text: "x" });
    vi.useRealTimers();
    await vi.waitFor(() => expect(answer).toBeDefined());
    expect(events.map((event) => [event.worker.activity, event.worker.awaitingApproval ?? false])).toEqual([
      ["turn 1: waiting", false],
      ["turn 1: calling write_note", false],
      ["turn 1: calling write_note", true],
    ]);
    answer?.(true);
    expect((await writing).isError).toBe(false);
    attempt.answer("wrote it");
    await reachStatus(kit.list, "w1", "done");
  });

  it("a real CLI writing 50 MB: a bounded number of activity events, the last one its last line", async () => {
    const cli = [
      process.execPath,
      "-e",
      // 50 MB in 64 KB writes, numbered lines, then the answer; as an agent CLI streaming a log.
      'const line = "x".repeat(60) + "\\n"; const block = line.repeat(1000); let n = 0;' +
        "const write = () => { while (n < 800) { n++; if (!process.stdout.write(`block ${n}\\n` + block)) return process.stdout.once('drain', write); } console.log('final answer: all written'); };" +
        "write();",
    ];
    kit = createKit({ backend: createCommandBackend({ command: cli, graceMs: 200 }) });
    const activity: string[] = [];
    kit.list.on((event) => {
      if (event.type === "activity" && event.worker.activity) activity.push(event.worker.activity);
    });
    const started = Date.now();
    await kit.call("vibe_spawn", { brief: "write a lot", label: "loud" });
    await reachStatus(kit.list, "w1", "done", 60_000);
    const elapsed = Date.now() - started;
    // One at once, one per interval at most after it, and the last line held back at the end:
    // a count of events, not a time; before, it was one event per chunk read (~800 here).
    expect(activity.length).toBeLessThanOrEqual(Math.floor(elapsed / activityIntervalMs) + 2);
    expect(activity.at(-1)).toBe("final answer: all written");
  });
});
