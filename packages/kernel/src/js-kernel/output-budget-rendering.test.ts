import { inspect } from "node:util";
import { resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import type { KernelOutput } from "../client/kernel-output.js";
import { OutputCollector } from "../eval/output-collector.js";
import { defaultOutputLimits, type OutputLimits } from "../eval/output-limits.js";
import type { FromExecutor } from "./executor-protocol.js";
import { OutputBudget } from "./output-budget.js";

type Display = Extract<FromExecutor, { type: "display" }>;

/** What a cell does, as the executor sees it; `turn` and `written` move the event loop and the channel. */
type Step =
  | { readonly stream: "stdout" | "stderr"; readonly text: string }
  | { readonly display: Display }
  | { readonly turn: true }
  | { readonly written: true };

const display = (text: string, kind: Display["kind"] = "display"): Step => ({
  display: { type: "display", kind, data: { "text/plain": text } },
});
const echo = (value: unknown): Step => display(inspect(value, { depth: 4 }), "result");
const print = (text: string, stream: "stdout" | "stderr" = "stdout"): Step => ({ stream, text });
const image = (bytes: number, seed: number): Step => ({
  display: {
    type: "display",
    kind: "display",
    data: { "image/png": Buffer.alloc(bytes, seed).toString("base64"), "text/plain": "<image>" },
  },
});

/** An executor message as the collector gets it after the kernel and the client (main.ts, toKernelOutput). */
function received(message: FromExecutor): KernelOutput | undefined {
  switch (message.type) {
    case "stream":
    case "omitted":
    case "error":
      return message;
    case "display":
      return message.cut ? { type: "display", kind: message.kind, data: message.data, cut: true } : message;
    default:
      return undefined;
  }
}

const rendered = (collector: OutputCollector) =>
  resultText({ content: collector.parts(), isError: false, changedFiles: [] });

/** The result of a cell whose output went straight to the collector, as before the budget. */
function withoutBudget(steps: readonly Step[], limits: OutputLimits): string {
  const collector = new OutputCollector(limits);
  for (const step of steps) {
    if ("stream" in step) collector.add({ type: "stream", name: step.stream, text: step.text });
    else if ("display" in step) collector.add(step.display);
  }
  return rendered(collector);
}

/**
 * The result of the same cell through the executor's budget; also the most it held at once, and
 * the base64 characters of the images it sent.
 */
function throughBudget(steps: readonly Step[], limits: OutputLimits) {
  const collector = new OutputCollector(limits);
  const unwritten: (() => void)[] = [];
  const turns: (() => void)[] = [];
  let imageChars = 0;
  const budget = new OutputBudget(
    limits,
    (message, sent) => {
      if (message.type === "display") imageChars += message.data["image/png"]?.length ?? 0;
      const output = received(message);
      if (output) collector.add(output);
      unwritten.push(sent);
    },
    (callback) => turns.push(callback),
  );
  budget.startCell();
  let mostHeld = 0;
  for (const step of steps) {
    if ("stream" in step) budget.stream(step.stream, step.text);
    else if ("display" in step) budget.display(step.display);
    else if ("turn" in step) for (const callback of turns.splice(0)) callback();
    else for (const sent of unwritten.splice(0)) sent();
    mostHeld = Math.max(mostHeld, budget.heldChars);
  }
  budget.send({ type: "done", id: 1, status: "ok" });
  return { text: rendered(collector), mostHeld, imageChars };
}

const numbered = (count: number, line: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: count }, (_, i) => line(i)).join("\n");

describe("the result of a cell through OutputBudget", () => {
  it("shows the head and the tail of a 50 000-character echo, as the collector alone does", () => {
    const limits = defaultOutputLimits;
    const oneLine = display(`'${"x".repeat(49_998)}'`, "result");
    const expected = withoutBudget([oneLine], limits);
    expect(expected).toMatch(/^'x{9000}/);
    expect(throughBudget([oneLine], limits).text).toBe(expected);
    // A file's contents: many lines, the last one cut by characters.
    const file = display(
      numbered(900, (i) => `${i}: ${"lorem ipsum ".repeat(4)}`),
      "result",
    );
    expect(throughBudget([file], limits).text).toBe(withoutBudget([file], limits));
  });

  it("shows the head and the tail of a 1 000-line display() and of an echoed array of objects", () => {
    const limits = defaultOutputLimits;
    const lines = display(numbered(1000));
    expect(withoutBudget([lines], limits)).toMatch(/^line 0\nline 1\n[\s\S]*\nline 998\nline 999$/);
    expect(throughBudget([lines], limits).text).toBe(withoutBudget([lines], limits));
    const rows = echo(Array.from({ length: 100 }, (_, id) => ({ id, name: `row ${id}`, tags: ["a", "b"] })));
    expect(throughBudget([rows], limits).text).toBe(withoutBudget([rows], limits));
  });

  it("renders displays cut between streams and turns as the collector alone does", () => {
    const limits = { ...defaultOutputLimits, maxChars: 2000, maxLines: 40 };
    const cases: Step[][] = [
      [print("start "), display("y".repeat(5000)), print("end\n")],
      [print("a\nb"), display(numbered(30)), print("c\n", "stderr"), display(numbered(30)), print("tail")],
      [display(numbered(39)), { turn: true }, display("one\ntwo"), print("x".repeat(3000))],
      [print("x".repeat(1990)), display("z".repeat(50)), { turn: true }, { written: true }, print("after\n")],
      [
        print(numbered(20)),
        { turn: true },
        display(numbered(500)),
        { turn: true },
        { written: true },
        { turn: true },
        print("last\n"),
      ],
    ];
    for (const steps of cases) expect(throughBudget(steps, limits).text).toBe(withoutBudget(steps, limits));
    // The result's line for an image over its limit takes head room: the budget weighs it too.
    const images = [image(10, 1), image(10, 2), display("v".repeat(2100)), print("!")];
    const oneImage = { ...limits, maxImages: 1 };
    expect(throughBudget(images, oneImage).text).toBe(withoutBudget(images, oneImage));
  });

  it("renders any mix of streams, displays, images and turns as the collector alone does", () => {
    // Small limits (also on images: the result's lines for images over them take head room), and
    // a seeded generator so a failure can be replayed.
    const limits: OutputLimits = { maxChars: 600, maxLines: 16, maxImages: 2, maxImageBytes: 64 };
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      // The high bits: an LCG's low bits repeat with short periods.
      return Math.floor((seed / 2 ** 31) * below);
    };
    const text = () => {
      const pieces = [
        "",
        "a",
        "bb\n",
        "\n",
        "ccc ccc",
        "dd\ndd\n",
        "e".repeat(40),
        numbered(8),
        "f".repeat(400),
      ];
      return Array.from({ length: 1 + random(3) }, () => pieces[random(pieces.length)]).join("");
    };
    for (let run = 0; run < 400; run++) {
      const steps: Step[] = [];
      for (let step = 0, count = 1 + random(40); step < count; step++) {
        const pick = random(10);
        if (pick < 4) steps.push(print(text(), pick === 0 ? "stderr" : "stdout"));
        else if (pick < 7) steps.push(display(text(), pick === 4 ? "result" : "display"));
        else if (pick === 7) steps.push(image(16 + random(80), random(4)));
        else steps.push(pick === 8 ? { turn: true } : { written: true });
      }
      expect(throughBudget(steps, limits).text, JSON.stringify(steps)).toBe(withoutBudget(steps, limits));
    }
  });

  it("holds no more than the head and one and a half times the limits of a flood of large displays", () => {
    const limits = defaultOutputLimits;
    const steps = Array.from({ length: 200 }, (_, i) => display(`${i} ${"w".repeat(30_000)}`));
    const { text, mostHeld } = throughBudget(steps, limits);
    expect(mostHeld).toBeLessThanOrEqual(limits.maxChars * 2.5);
    expect(text).toBe(withoutBudget(steps, limits));
    expect(text).toMatch(/^0 w{100}/);
  });

  it("sends no more images than the result shows of a flood of them, and renders as the collector alone does", () => {
    const limits = defaultOutputLimits;
    const steps: Step[] = [];
    for (let i = 0; i < 1000; i++) {
      steps.push(image(20_000, i % 256), print(`drawn ${i}\n`));
      if (i % 10 === 0) steps.push({ turn: true }, { written: true });
    }
    const { text, imageChars } = throughBudget(steps, limits);
    // 256 different images: 8 shown, 248 over the limit; the repeats are dropped.
    expect(imageChars).toBe(limits.maxImages * Buffer.alloc(20_000).toString("base64").length);
    expect(text).toBe(withoutBudget(steps, limits));
    expect(text).toMatch(/… 248 images were left out \(over the limit of 8 images per cell\)/);
  });
});
