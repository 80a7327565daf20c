import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { askCard } from "../ask/ask-card.js";
import { buildCard } from "../card/card.js";
import { TerminalQuestionPort } from "./terminal-port.js";

// Piped streams stand in for the terminal here, to check queueing and cancellation quickly; the
// real-terminal behaviour is in terminal-port.integration.test.ts.
function piped(attached = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  const port = new TerminalQuestionPort({ input, output, attached: () => attached });
  return { port, input, written: () => written };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const target = { id: "t" };
const first = buildCard({ question: "First?", options: [{ label: "a" }, { label: "b" }] });
const second = buildCard({ question: "Second?", options: [{ label: "c" }, { label: "d" }] });

describe("TerminalQuestionPort (piped streams)", () => {
  it("is not attached when the streams are not TTYs", () => {
    expect(new TerminalQuestionPort({ input: new PassThrough(), output: new PassThrough() }).attached()).toBe(
      false,
    );
  });

  it("shows one card at a time: the second waits until the first is answered", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    const two = askCard(port, target, second);
    await until("the first card", () => written().includes("First?"));
    expect(written()).not.toContain("Second?");
    await until("the prompt", () => written().endsWith("> "));
    input.write("2\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["b"] });
    await until("the second card", () => written().includes("Second?"));
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(two).resolves.toEqual({ kind: "answered", selected: ["c"] });
  });

  it("drops a queued card whose call is cancelled, without showing it", async () => {
    const { port, input, written } = piped();
    const one = askCard(port, target, first);
    const controller = new AbortController();
    const two = askCard(port, target, second, controller.signal);
    await until("the first card", () => written().includes("First?"));
    controller.abort(new Error("call cancelled"));
    await expect(two).resolves.toEqual({ kind: "cancelled", reason: "call cancelled" });
    await until("the prompt", () => written().endsWith("> "));
    input.write("1\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["a"] });
    expect(written()).not.toContain("Second?");
  });

  it("ignores lines typed before the card appeared", async () => {
    const { port, input, written } = piped();
    input.write("1\n");
    const one = askCard(port, target, first);
    await until("the type-ahead note", () =>
      written().includes("(ignored what was typed before the card appeared)"),
    );
    await until("the prompt", () => written().endsWith("> "));
    input.write("2\n");
    await expect(one).resolves.toEqual({ kind: "answered", selected: ["b"] });
  });

  it("reports no human when input ends while a card waits", async () => {
    const { port, input } = piped();
    const one = askCard(port, target, first);
    input.end();
    await expect(one).resolves.toEqual({ kind: "no_human" });
  });
});
