import { describe, expect, it } from "vitest";
import { countLines } from "../eval/cut-text.js";
import { defaultOutputLimits, type OutputLimits } from "../eval/output-limits.js";
import type { FromExecutor } from "./executor-protocol.js";
import { OutputBudget } from "./output-budget.js";

/** A budget on a channel that writes nothing until told to, and turns that run only when told to. */
function harness(limits: Partial<OutputLimits> = { maxChars: 2000, maxLines: 40 }) {
  const posted: FromExecutor[] = [];
  /** When each `activity` message was posted (kept apart from `posted`). */
  const activity: number[] = [];
  const pendingSent: (() => void)[] = [];
  const turns: (() => void)[] = [];
  const clock = { now: 0 };
  const budget = new OutputBudget(
    { ...defaultOutputLimits, ...limits },
    (message, sent) => {
      if (message.type === "activity") activity.push(clock.now);
      else posted.push(message);
      pendingSent.push(sent);
    },
    (callback) => turns.push(callback),
    () => clock.now,
  );
  return {
    budget,
    posted,
    activity,
    clock,
    /** The channel writes out everything handed to it so far. */
    written: () => {
      for (const sent of pendingSent.splice(0)) sent();
    },
    /** The event loop turns once. */
    turn: () => {
      for (const callback of turns.splice(0)) callback();
    },
    streamText: () => posted.map((message) => (message.type === "stream" ? message.text : "")).join(""),
  };
}

describe("OutputBudget", () => {
  it("sends activity, at most once a second, while the line held open for carriage returns changes", () => {
    const { budget, posted, activity, clock, turn, written, streamText } = harness();
    for (let i = 0; i < 10; i++) {
      budget.stream("stdout", ".");
      turn();
      written();
      clock.now += 400;
    }
    // Writes at 0, 400, … 3600 ms: activity at 0, 1200, 2400 and 3600, and no text yet.
    expect(activity).toEqual([0, 1200, 2400, 3600]);
    expect(posted).toEqual([]);
    clock.now += 1000;
    budget.stream("stdout", "\r50%");
    budget.stream("stdout", "\r100%\n");
    budget.send({ type: "done", id: 1, status: "ok" });
    expect(streamText()).toBe("100%\n");
    expect(activity).toHaveLength(5);
    expect(posted.at(-1)).toEqual({ type: "done", id: 1, status: "ok" });
  });

  it("holds about the limits of a million lines printed in one turn, and counts the rest exactly", () => {
    const { budget, posted, streamText } = harness();
    let printed = 0;
    let most = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const line = `${i}\n`;
      budget.stream("stdout", line);
      printed += line.length;
      most = Math.max(most, budget.heldChars);
    }
    // The head and at most one and a half times the limits of tail.
    expect(most).toBeLessThanOrEqual(2000 + 3000);
    expect(posted).toEqual([]);
    budget.send({ type: "done", id: 1, status: "ok" });
    expect(posted.map((message) => message.type)).toEqual(["stream", "omitted", "stream", "done"]);
    const omitted = posted[1] as Extract<FromExecutor, { type: "omitted" }>;
    const text = streamText();
    expect(text.startsWith("0\n1\n2\n")).toBe(true);
    expect(text.endsWith("999998\n999999\n")).toBe(true);
    expect(countLines(text) + omitted.lines).toBe(1_000_000);
    expect(text.length + omitted.chars).toBe(printed);
    expect(budget.heldChars).toBe(0);
  });

  it("applies carriage returns before weighing: 20 000 progress updates in turns are their last, nothing omitted", () => {
    const { budget, posted, streamText, turn, written } = harness();
    for (let i = 0; i < 20_000; i++) {
      budget.stream("stdout", `\r${i}`);
      if (i % 100 === 0) {
        turn();
        written();
      }
      expect(budget.heldChars).toBeLessThanOrEqual(2000 + 3000 + 2000);
    }
    budget.send({ type: "done", id: 1, status: "ok" });
    expect(posted.map((message) => message.type)).toEqual(["stream", "done"]);
    expect(streamText()).toBe("\r19999");
  });

  it("sends held output at the next turn, the tail only once all sent before is written", () => {
    const { budget, posted, written, turn } = harness({ maxChars: 100, maxLines: 5 });
    budget.stream("stdout", "a\n");
    expect(posted).toEqual([]);
    turn();
    expect(posted).toEqual([{ type: "stream", name: "stdout", text: "a\n" }]);
    for (let i = 0; i < 20; i++) budget.stream("stdout", `${i}\n`);
    turn();
    // The head's rest goes; the tail waits for the channel.
    expect(posted.map((message) => (message.type === "stream" ? message.text : message.type))).toEqual([
      "a\n",
      "0\n1\n2\n3\n",
    ]);
    written();
    turn();
    // What is kept of the tail is about the limits (it is trimmed once half as much again over
    // them): lines 13 to 19; 4 to 12 are counted.
    expect(posted.slice(2)).toEqual([
      { type: "omitted", chars: "4\n5\n6\n7\n8\n9\n10\n11\n12\n".length, lines: 9 },
      { type: "stream", name: "stdout", text: "13\n14\n15\n16\n17\n18\n19\n" },
    ]);
  });

  it("keeps the order of output and other messages, and weighs a text display as its lines", () => {
    const { budget, posted } = harness({ maxChars: 100, maxLines: 3 });
    budget.stream("stdout", "one\n");
    budget.display({ type: "display", kind: "display", data: { "text/plain": "two\nthree" } });
    budget.display({
      type: "display",
      kind: "display",
      data: { "image/png": "iVBO", "text/plain": "<image>" },
    });
    budget.stream("stderr", "four\n");
    budget.send({ type: "error", ename: "Error", evalue: "boom", traceback: [] });
    expect(posted).toEqual([
      { type: "stream", name: "stdout", text: "one\n" },
      { type: "display", kind: "display", data: { "text/plain": "two\nthree" } },
      { type: "display", kind: "display", data: { "image/png": "iVBO", "text/plain": "<image>" } },
      { type: "stream", name: "stderr", text: "four\n" },
      { type: "error", ename: "Error", evalue: "boom", traceback: [] },
    ]);
    // Three lines of head were used; the fourth line went to the tail, whole.
    for (let i = 0; i < 50; i++) {
      budget.display({ type: "display", kind: "display", data: { "text/plain": `d${i}` } });
    }
    budget.send({ type: "done", id: 1, status: "ok" });
    const after = posted.slice(5);
    // d0 to d45 left out, each a line: "d0\n" to "d9\n" of 3 characters, the rest of 4.
    expect(after[0]).toEqual({ type: "omitted", chars: 10 * 3 + 36 * 4, lines: 46 });
    expect(
      after.slice(1, -1).map((message) => message.type === "display" && message.data["text/plain"]),
    ).toEqual(["d46", "d47", "d48", "d49"]);
  });

  it("hands over everything held at once when the process exits", () => {
    const { budget, posted, streamText } = harness({ maxChars: 100, maxLines: 2 });
    budget.stream("stdout", "1\n2\n3\n4\nbye\n");
    budget.flushAll();
    expect(posted.map((message) => message.type)).toEqual(["stream", "stream"]);
    expect(streamText()).toBe("1\n2\n3\n4\nbye\n");
  });

  it("gives each cell the whole head budget", () => {
    const { budget, posted, streamText } = harness({ maxChars: 100, maxLines: 2 });
    budget.stream("stdout", "1\n2\n3\n4\n5\n6\n7\n");
    budget.send({ type: "done", id: 1, status: "ok" });
    expect(posted.filter((message) => message.type === "omitted")).toHaveLength(1);
    budget.startCell();
    budget.stream("stdout", "a\nb\n");
    budget.send({ type: "done", id: 2, status: "ok" });
    expect(posted.filter((message) => message.type === "omitted")).toHaveLength(1);
    expect(streamText().endsWith("a\nb\n")).toBe(true);
  });

  it("sends only the images the result shows: a repeat not at all, one over the limits as its line", () => {
    const { budget, posted } = harness({ maxChars: 1000, maxLines: 40, maxImages: 2, maxImageBytes: 8 });
    const png = (text: string) => ({
      type: "display" as const,
      kind: "display" as const,
      data: { "image/png": Buffer.from(text).toString("base64"), "text/plain": "<image>" },
    });
    for (const text of ["one", "one", "two", "big image", "three", "two"]) budget.display(png(text));
    budget.send({ type: "done", id: 1, status: "ok" });
    const line = (bytes: number, limit: string) => `[image/png, ${bytes} bytes, not shown: over ${limit}]\n`;
    expect(posted).toEqual([
      png("one"),
      png("two"),
      {
        type: "display",
        kind: "display",
        data: {
          "text/plain": line(
            9,
            "the size limit of 8 bytes per image (12 bytes as base64, as the model gets it)",
          ),
        },
      },
      { type: "display", kind: "display", data: { "text/plain": line(5, "the limit of 2 images per cell") } },
      { type: "omitted", chars: 0, lines: 0, images: 2, largeImages: 1 },
      { type: "done", id: 1, status: "ok" },
    ]);
    // Each cell gets the whole image budget: a repeat of the last cell's image is shown again.
    budget.startCell();
    budget.display(png("one"));
    expect(posted.at(-1)).toEqual(png("one"));
  });

  it("sends an echo cut at the head as one result: its rest is a display", () => {
    const { budget, posted } = harness({ maxChars: 100, maxLines: 40 });
    budget.stream("stdout", "x".repeat(90));
    budget.display({ type: "display", kind: "result", data: { "text/plain": "y".repeat(30) } });
    budget.send({ type: "done", id: 1, status: "ok" });
    expect(posted).toEqual([
      { type: "stream", name: "stdout", text: "x".repeat(90) },
      { type: "display", kind: "result", data: { "text/plain": "y".repeat(10) }, cut: true },
      { type: "display", kind: "display", data: { "text/plain": `${"y".repeat(20)}\n` } },
      { type: "done", id: 1, status: "ok" },
    ]);
  });
});
