import { askCard, buildCard, MemoryQuestionPort } from "@tools/ask";
import { describe, expect, it } from "vitest";
import { HeldLines } from "./held-lines.js";

const target = { id: "conversation" };
const card = buildCard({ question: "Which colour?", timeoutMs: null });

/** A stream that records what is written to it. */
function recorder(written: string[], name: string) {
  return { write: (text: string) => (written.push(`${name}:${text}`), true) };
}

describe("HeldLines", () => {
  it("writes at once with no card open, holds lines while one is asked, and writes them in order once it is settled", async () => {
    const written: string[] = [];
    const out = recorder(written, "out");
    const err = recorder(written, "err");
    const lines = new HeldLines();
    const memory = new MemoryQuestionPort();
    const port = lines.port(memory);
    expect(port.attached()).toBe(true);
    lines.write(out, "before\n");
    expect(written).toEqual(["out:before\n"]);

    const outcome = askCard(port, target, card);
    const shown = await memory.nextCard();
    lines.write(out, "w1 started\n");
    lines.write(err, "… turn 2\n");
    lines.write(out, "w1 … step 1\n", "w1");
    lines.write(out, "w1 … step 2\n", "w1");
    expect(written).toEqual(["out:before\n"]);
    shown.reply("blue");
    expect(await outcome).toMatchObject({ kind: "answered", text: "blue" });
    // The latest progress of a worker only, in its place among the rest.
    expect(written).toEqual(["out:before\n", "out:w1 started\n", "err:… turn 2\n", "out:w1 … step 2\n"]);
    lines.write(out, "after\n");
    expect(written.at(-1)).toBe("out:after\n");
  });

  it("writes what it held when the card fails or is cancelled, too", async () => {
    const written: string[] = [];
    const lines = new HeldLines();
    const memory = new MemoryQuestionPort();
    const controller = new AbortController();
    const outcome = askCard(lines.port(memory), target, card, controller.signal);
    await memory.nextCard();
    lines.write(recorder(written, "out"), "held\n");
    expect(written).toEqual([]);
    controller.abort(new Error("interrupted"));
    await outcome.catch(() => undefined);
    await Promise.resolve();
    expect(written).toEqual(["out:held\n"]);
  });
});
